import { describe, expect, it } from "vitest";
import { ndjsonSplitter } from "../../src/core/ndjson.ts";

/** Every line the splitter returns for `chunks`, in order. */
function split(chunks: Buffer[]): string[] {
  const lines = ndjsonSplitter();
  return chunks.flatMap((chunk) => lines(chunk));
}

describe("ndjsonSplitter", () => {
  it("keeps a multi-byte character whole when a chunk ends inside it", () => {
    const bytes = Buffer.from('{"name":"café ☕"}\n');
    // é is two bytes, ☕ three: cut inside each.
    const e = bytes.indexOf("é") + 1;
    const cup = bytes.indexOf("☕") + 2;
    const chunks = [bytes.subarray(0, e), bytes.subarray(e, cup), bytes.subarray(cup)];
    expect(split(chunks)).toEqual(['{"name":"café ☕"}']);
    expect(JSON.parse(split(chunks)[0]!)).toEqual({ name: "café ☕" });
  });

  it("returns a line once its newline came, however the bytes were cut", () => {
    const text = '{"a":1}\n\n{"b":"ü"}\n  \n{"c":3}\n';
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const chunks = [];
      for (let start = 0; start < bytes.length; start += size)
        chunks.push(bytes.subarray(start, start + size));
      expect(split(chunks), `chunks of ${size} bytes`).toEqual(['{"a":1}', '{"b":"ü"}', '{"c":3}']);
    }
  });

  it("returns nothing for a chunk that completes no line, and never a line without its newline", () => {
    const lines = ndjsonSplitter();
    expect(lines(Buffer.from('{"a":'))).toEqual([]);
    expect(lines(Buffer.from('1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines(Buffer.from(""))).toEqual([]);
  });
});
