// Values printed as Go's fmt prints them in a template: `%v` (`[a b]`, `map[k:v]`, `<nil>`), and
// printf's verbs (%s %d %v %q %t %x %X %o %b %c %e %f %g, flags, widths and precisions), with
// fmt's own words for a wrong or missing argument (`%!d(string=x)`, `%!s(MISSING)`).
import type { TemplateValue } from "./template-tree.ts";

const NIL = new WeakSet<object>();

/**
 * A nil slice (`[]`) or map (`map[]`) of Go's: printed as an empty one, `null` in JSON. docker
 * inspect runs a template on its typed structs first, where a JSON `null` is such a value.
 */
export function nilOf(kind: "slice" | "map"): TemplateValue {
  const value = kind === "slice" ? [] : {};
  NIL.add(value);
  return value;
}

/** Whether `value` is a nil slice or map of {@link nilOf}. */
export function isNil(value: unknown): boolean {
  return typeof value === "object" && value !== null && NIL.has(value);
}

/** A number as Go's %v prints it: an integer whole, a float in its shortest form, `1e-05`. */
function goNumber(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  const [mantissa, power] = value.toExponential().split("e") as [string, string];
  const exponent = Number(power);
  if (exponent >= -4 && exponent < 21) return String(value);
  return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** A value as text/template prints it (fmt's %v): `[a b]` for a list, `<nil>` for nothing. */
export function printed(value: TemplateValue): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return `[${value.map(printed).join(" ")}]`;
  if (typeof value === "object")
    return `map[${Object.keys(value)
      .filter((key) => typeof value[key] !== "function")
      .sort()
      .map((key) => `${key}:${printed(value[key] as TemplateValue)}`)
      .join(" ")}]`;
  if (typeof value === "number") return goNumber(value);
  return String(value);
}

/** The Go type fmt names for a value (`%!d(string=x)`); `raw` for docker inspect's JSON maps. */
export function goType(value: unknown, raw = false): string {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number")
    return raw ? "json.Number" : Number.isInteger(value) ? "int" : "float64";
  if (Array.isArray(value)) return raw ? "[]interface {}" : "[]string";
  if (value === null || value === undefined) return "<nil>";
  return raw ? "map[string]interface {}" : "interface {}";
}

/** A string as Go's %q (strconv.Quote) writes it. */
function goQuote(text: string): string {
  const named: Record<string, string> = { "\x07": "\\a", "\v": "\\v" };
  return JSON.stringify(text).replace(
    /\\u00([01][\da-f])|[\x7f\u2028\u2029]/g,
    (match, hex?: string) => {
      if (hex === undefined)
        return match === "\x7f" ? "\\x7f" : `\\u${match.charCodeAt(0).toString(16)}`;
      const char = String.fromCharCode(parseInt(hex, 16));
      return named[char] ?? `\\x${hex}`;
    },
  );
}

interface Spec {
  flags: string;
  width?: number;
  precision?: number;
  verb: string;
}

/** Go's fmt.Sprintf of `format` with `args`. */
export function sprintf(format: string, args: TemplateValue[]): string {
  let next = 0;
  const out = format.replace(
    /%([-+# 0]*)(\d+)?(?:\.(\d*))?(.|$)/gsu,
    (_, flags: string, width?: string, precision?: string, verb?: string) => {
      if (verb === "%") return "%";
      if (!verb) return "%!(NOVERB)";
      const spec: Spec = {
        flags,
        width: width === undefined ? undefined : Number(width),
        precision: precision === undefined ? undefined : Number(precision || 0),
        verb,
      };
      if (next >= args.length) return `%!${verb}(MISSING)`;
      return padded(formatOne(args[next++]!, spec), spec);
    },
  );
  if (next >= args.length) return out;
  const extra = args.slice(next).map((arg) => `${goType(arg)}=${printed(arg)}`);
  return `${out}%!(EXTRA ${extra.join(", ")})`;
}

function padded(text: string, { flags, width, verb }: Spec): string {
  const length = Array.from(text).length;
  if (width === undefined || length >= width) return text;
  const fill = width - length;
  if (flags.includes("-")) return text + " ".repeat(fill);
  if (flags.includes("0") && /[dxXobeEfFgG]/.test(verb)) {
    const sign = /^[-+]/.test(text) ? text[0]! : "";
    return sign + "0".repeat(fill) + text.slice(sign.length);
  }
  return " ".repeat(fill) + text;
}

function formatOne(value: TemplateValue, spec: Spec): string {
  const { verb, precision, flags } = spec;
  const bad = () => `%!${verb}(${value === null ? "<nil>" : `${goType(value)}=${printed(value)}`})`;
  if (Array.isArray(value) && verb !== "v" && verb !== "q")
    return `[${value.map((item) => formatOne(item, spec)).join(" ")}]`;
  const sign = (text: string, number: number) =>
    number >= 0 && flags.includes("+")
      ? `+${text}`
      : number >= 0 && flags.includes(" ")
        ? ` ${text}`
        : text;
  switch (verb) {
    case "v":
      return typeof value === "number" ? sign(goNumber(value), value) : printed(value);
    case "s":
      if (typeof value !== "string")
        return typeof value === "object" && value ? printed(value) : bad();
      return precision === undefined ? value : Array.from(value).slice(0, precision).join("");
    case "q":
      if (typeof value === "string") return goQuote(value);
      if (Array.isArray(value)) return `[${value.map((item) => formatOne(item, spec)).join(" ")}]`;
      return typeof value === "number" && Number.isInteger(value)
        ? `'${String.fromCodePoint(value)}'`
        : bad();
    case "t":
      return typeof value === "boolean" ? String(value) : bad();
    case "d":
    case "o":
    case "b":
    case "c":
      if (typeof value !== "number" || !Number.isInteger(value)) return bad();
      if (verb === "c") return String.fromCodePoint(value);
      return sign(value.toString({ d: 10, o: 8, b: 2 }[verb]), value);
    case "x":
    case "X": {
      let hex: string;
      if (typeof value === "string") hex = Buffer.from(value).toString("hex");
      else if (typeof value === "number" && Number.isInteger(value)) hex = value.toString(16);
      else return bad();
      if (flags.includes("#")) hex = hex.replace(/^(-?)/, "$10x");
      return verb === "X" ? hex.toUpperCase() : hex;
    }
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G": {
      if (typeof value !== "number") return bad();
      const lower = verb.toLowerCase();
      const text =
        lower === "f"
          ? value.toFixed(precision ?? 6)
          : lower === "e"
            ? exponential(value, precision ?? 6)
            : precision === undefined
              ? goNumber(value)
              : Number(value.toPrecision(precision || 1)).toString();
      return sign(verb === lower ? text : text.toUpperCase(), value);
    }
    default:
      return bad();
  }
}

/** %e: a mantissa of `digits` decimals and an exponent of at least two digits (`1.5e+00`). */
function exponential(value: number, digits: number): string {
  const [mantissa, power] = value.toExponential(digits).split("e") as [string, string];
  const exponent = Number(power);
  return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}
