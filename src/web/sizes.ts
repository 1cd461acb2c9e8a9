// Sizes in docker's units, as the CLI prints them (src/cli/render/format.ts; the page cannot
// import the CLI's code): decimal (`1.98MB`) for disk and I/O, binary (`23.5GiB`) for memory.

const DECIMAL = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
const BINARY = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];

/**
 * `value` as Go's `%.<precision>g` prints it: the CLI's sizes go through it. Rounds to even on
 * an exact tie (JavaScript's toPrecision rounds it up), and switches to `1e+03` where Go does.
 */
function goG(value: number, precision: number): string {
  let text = value.toPrecision(precision);
  // A tie is exact only when the decimal digits past the precision are a single 5.
  const exact = value.toPrecision(precision + 20).replace(/e.*/, "");
  const digits = exact.replace(/^[^1-9]*|\./g, "");
  if (/^5(0*)$/.test(digits.slice(precision))) {
    const down = Number(digits.slice(0, precision)) % 2 === 0;
    if (down) text = (value - Math.abs(value) * Number.EPSILON * 4).toPrecision(precision);
  }
  const [mantissa, power = "0"] = Number(text)
    .toExponential(precision - 1)
    .split("e");
  const exponent = Number(power);
  const trim = (digits: string) => (digits.includes(".") ? digits.replace(/\.?0+$/, "") : digits);
  if (exponent < -4 || exponent >= precision) {
    const sign = exponent < 0 ? "-" : "+";
    return `${trim(mantissa!)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return trim(Number(text).toFixed(Math.max(0, precision - 1 - exponent)));
}

function scaled(bytes: number, base: number, units: string[], precision: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= base && unit < units.length - 1) {
    size /= base;
    unit++;
  }
  return `${goG(size, precision)}${units[unit]}`;
}

/**
 * Bytes in decimal units, as go-units' `HumanSizeWithPrecision`: precision 3 for `docker stats`'
 * NET I/O and BLOCK I/O and `docker images`' SIZE (`1.98MB`), 4 for `docker system df` (`2.146GB`).
 * Empty for what is not a number.
 */
export function humanSize(bytes: number | undefined, precision = 3): string {
  return typeof bytes === "number" && Number.isFinite(bytes)
    ? scaled(bytes, 1000, DECIMAL, precision)
    : "";
}

/** Bytes in binary units, as go-units' `BytesSize`: `docker stats`' MEM USAGE / LIMIT (`1.5GiB`). */
export function bytesSize(bytes: number | undefined): string {
  return typeof bytes === "number" && Number.isFinite(bytes) ? scaled(bytes, 1024, BINARY, 4) : "";
}
