import { isInteger, isSafeNumber, parse, stringify } from "lossless-json";

/**
 * Engines send 64-bit integers (a cgroup v1 memory limit is 9223372036854771712) that a JS
 * number cannot hold: `JSON.parse` would turn that one into 9223372036854772000. Only text with a
 * number of 16 digits or more can hold such a number: a value (after `:`, `[` or `,`) that starts
 * so. Digits inside strings (hex ids are full of them) do not count. The rest, nearly every body,
 * takes the native parser, which is many times faster.
 */
const LONG_NUMBER = /[:[,]\s*-?\d{16}/;

/**
 * Parse an engine's JSON body, keeping every integer beyond 2^53 exact as a BigInt, so that it
 * passes through docklens unchanged ({@link toJsonText} writes it back as the same digits).
 */
export function parseEngineJson(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return parse(text, null, {
    parseNumber: (digits) =>
      isSafeNumber(digits) || !isInteger(digits) ? Number(digits) : BigInt(digits),
    // As JSON.parse does: a key given twice keeps its last value.
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

/**
 * An engine's (or a node's) answer: its JSON as {@link parseEngineJson} reads it, else the text,
 * which the core refuses as a body that is no JSON.
 */
export function parseJsonOrText(text: string): unknown {
  try {
    return parseEngineJson(text);
  } catch {
    return text;
  }
}

/** JSON text of a body, BigInts written as their digits; `space` as JSON.stringify takes it. */
export function toJsonText(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    // JSON.stringify refuses BigInt as soon as it meets one, so bodies without any pay nothing.
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return stringify(value, null, space)!;
  }
}

/**
 * An engine's body as it arrives: `T`, the body docklens hands on, with the properties of `U` in
 * place of its own (internal). `Omit` would lose the named properties of a type with an index
 * signature.
 */
export type Override<T, U> = { [K in keyof T as K extends keyof U ? never : K]: T[K] } & U;
