// What a terminal draws, measured apart from cli-table3's own measure: the tables' tests check
// the tables' columns with it.

const SGR = /\u001b\[[0-9;]*m/g;
const GRAPHEMES = new Intl.Segmenter("en", { granularity: "grapheme" });
/** Two columns wide: an emoji of any Unicode version, and East Asian wide scripts. */
const WIDE = new RegExp(
  String.raw`^(\p{RGI_Emoji}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}` +
    String.raw`\u3000-\u303f\uff01-\uff60\uffe0-\uffe6])`,
  // Unicode sets (\p{RGI_Emoji}): Node 20 has them; the compiler's target does not know the flag.
  "v",
);

/**
 * The columns a terminal draws `text` in: colours take none, a grapheme (`👩‍💻`, `é` as e and an
 * accent) one, an emoji or an East Asian wide character two.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of GRAPHEMES.segment(text.replace(SGR, "")))
    width += WIDE.test(segment) ? 2 : 1;
  return width;
}
