// ANSI colours in log lines become coloured text, never markup: a line is cut into segments of
// plain text, each with the CSS classes of the SGR codes in force, and the template renders each
// segment as a text node. Every other escape sequence is dropped.

/** A run of text with its colour classes (`fg-1`, `bg-4`, `bold`). */
export interface Segment {
  text: string;
  classes: string;
}

// CSI sequences (colours and cursor moves alike) and OSC sequences (titles, links).
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[([0-9;?]*)([A-Za-z])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

/** Cut `line` into segments by its SGR codes; a line without escapes is one segment. */
export function ansiSegments(line: string): Segment[] {
  if (!line.includes("\u001b")) return [{ text: line, classes: "" }];
  const segments: Segment[] = [];
  let fg = "";
  let bg = "";
  let bold = false;
  let last = 0;
  const push = (text: string) => {
    if (text)
      segments.push({ text, classes: [fg, bg, bold ? "bold" : ""].filter(Boolean).join(" ") });
  };
  for (const match of line.matchAll(ESCAPES)) {
    push(line.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] !== "m") continue;
    const codes = (match[1] || "0").split(";").map(Number);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i]!;
      if (code === 0) [fg, bg, bold] = ["", "", false];
      else if (code === 1) bold = true;
      else if (code === 22) bold = false;
      else if (code >= 30 && code <= 37) fg = `fg-${code - 30}`;
      else if (code >= 90 && code <= 97) fg = `fg-${code - 90 + 8}`;
      else if (code === 39) fg = "";
      else if (code >= 40 && code <= 47) bg = `bg-${code - 40}`;
      else if (code === 49) bg = "";
      // 256-colour and true-colour codes: skip their arguments, keep the default colour.
      else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
    }
  }
  push(line.slice(last));
  return segments;
}

/** A segment cut further around the matches of `needle` (case-insensitive), to highlight them. */
export function highlight(text: string, needle: string): Array<{ text: string; match: boolean }> {
  if (!needle) return [{ text, match: false }];
  const parts: Array<{ text: string; match: boolean }> = [];
  const lower = text.toLowerCase();
  const want = needle.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(want); at !== -1; at = lower.indexOf(want, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + want.length), match: true });
    from = at + want.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}
