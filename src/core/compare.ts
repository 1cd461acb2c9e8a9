/** Whether the UTF-16 code unit at `index` of `text` is an ASCII digit. */
const isDigit = (text: string, index: number) => {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
};

/**
 * The one string comparator of docklens, for `Array.prototype.sort`, used by every list and
 * route that orders names and references, and by the CLI's tables: docker's natural order (the
 * docker CLI sorts `network ls`, `volume ls` and `context ls` with sortorder's `NaturalLess`).
 * A run of digits compares by its value (`run-2` before `run-10`; with equal values, fewer
 * leading zeros first) and comes before any other character; other characters compare by code
 * unit, as `<` does (`B` before `a`), so the order is the same wherever docklens runs. Only equal
 * strings give 0.
 *
 * @example
 * ["run-10", "run-2", "b", "B", "a"].sort(compareStrings); // ["B", "a", "b", "run-2", "run-10"]
 */
export function compareStrings(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const digitA = isDigit(a, i);
    if (digitA !== isDigit(b, j)) return digitA ? -1 : 1;
    if (!digitA) {
      if (a[i] !== b[j]) return a[i]! < b[j]! ? -1 : 1;
      i++;
      j++;
      continue;
    }
    const zerosA = i;
    const zerosB = j;
    while (a[i] === "0") i++;
    while (b[j] === "0") j++;
    const startA = i;
    const startB = j;
    while (i < a.length && isDigit(a, i)) i++;
    while (j < b.length && isDigit(b, j)) j++;
    // The longer number (leading zeros aside) is the larger; of equal length, digit by digit.
    if (i - startA !== j - startB) return i - startA < j - startB ? -1 : 1;
    const valueA = a.slice(startA, i);
    const valueB = b.slice(startB, j);
    if (valueA !== valueB) return valueA < valueB ? -1 : 1;
    if (startA - zerosA !== startB - zerosB) return startA - zerosA < startB - zerosB ? -1 : 1;
  }
  return Math.sign(a.length - i - (b.length - j));
}
