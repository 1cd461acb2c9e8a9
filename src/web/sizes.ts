// Sizes in docker's units, as the CLI prints them (src/cli/render/format.ts; the page cannot
// import the CLI's code): decimal (`1.98MB`) for disk and I/O, binary (`23.5GiB`) for memory.

const DECIMAL = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
const BINARY = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];

/** `value` with `precision` significant digits and no trailing zeros, as Go's `%.<n>g` below 10^n. */
function significant(value: number, precision: number): string {
  return String(Number(value.toPrecision(precision)));
}

function scaled(bytes: number, base: number, units: string[], precision: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= base && unit < units.length - 1) {
    size /= base;
    unit++;
  }
  return `${significant(size, precision)}${units[unit]}`;
}

/**
 * Bytes in decimal units, as go-units' `HumanSizeWithPrecision`: precision 3 for `docker stats`'
 * NET I/O and BLOCK I/O and `docker images`' SIZE (`1.98MB`), 4 for `docker system df` (`2.146GB`).
 */
export function humanSize(bytes: number | undefined, precision = 4): string {
  return typeof bytes === "number" && Number.isFinite(bytes)
    ? scaled(bytes, 1000, DECIMAL, precision)
    : "";
}

/** Bytes in binary units, as go-units' `BytesSize`: `docker stats`' MEM USAGE / LIMIT (`1.5GiB`). */
export function bytesSize(bytes: number | undefined): string {
  return typeof bytes === "number" && Number.isFinite(bytes) ? scaled(bytes, 1024, BINARY, 4) : "";
}
