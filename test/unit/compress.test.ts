import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, negotiate, type Negotiated } from "../../src/server/compress.ts";

const none: Negotiated = { coding: undefined, identity: true };
const gzip: Negotiated = { coding: "gzip", identity: true };
const br: Negotiated = { coding: "br", identity: true };

describe("negotiate: the coding an Accept-Encoding header asks for", () => {
  it.each<[string | undefined, Negotiated]>([
    // No header, or an empty one: no coding.
    [undefined, none],
    ["", none],
    ["  ", none],
    ["identity", none],
    // One coding, in any case; x-gzip is gzip.
    ["gzip", gzip],
    ["br", br],
    ["GZIP", gzip],
    ["Br", br],
    ["x-gzip", gzip],
    // Several of equal weight: brotli first, whatever the order; codings docklens lacks count for nothing.
    ["gzip, deflate, br, zstd", br],
    ["gzip, br", br],
    ["deflate, gzip", gzip],
    ["deflate, zstd, compress", none],
    // Weights decide.
    ["br;q=0.5, gzip", gzip],
    ["gzip;q=0.8, br;q=0.9", br],
    ["br;q=0, gzip", gzip],
    ["gzip;q=0", none],
    ["br;q=0.001", br],
    ["gzip ; q=0.5 , br ; q=0.4", gzip],
    ["gzip;Q=0.5, br;q=0.4", gzip],
    ["gzip;level=9;q=1", gzip],
    [",,gzip,", gzip],
    // `*` stands for every coding not named, identity included.
    ["*", br],
    ["*;q=0.5, gzip", gzip],
    ["*, br;q=0", gzip],
    ["*;q=0", { coding: undefined, identity: false }],
    // Identity: refused only by q=0, chosen over a coding only when weighed above it.
    ["identity;q=0", { coding: undefined, identity: false }],
    ["gzip, identity;q=0", { coding: "gzip", identity: false }],
    ["gzip;q=0.5, identity", none],
    ["identity;q=0.5, gzip", gzip],
    ["gzip;q=0.5, identity;q=0.5", gzip],
    // Unreadable weights or names: the entry counts for nothing.
    ["gzip;q=1.5", none],
    ["gzip;q=abc", none],
    ["gzip;q=0.1234", none],
    ["gzip;q=", none],
    ["g zip, br", br],
  ])("%j", (header, expected) => {
    expect(negotiate(header)).toEqual(expected);
  });
});

describe("compress", () => {
  const body = Buffer.from(
    JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({ Id: i.toString(16), State: "running" })),
    ),
  );

  it("makes bodies that Node's zlib decodes back to the same bytes, smaller", async () => {
    const gzipped = await compress(body, "gzip");
    const brotli = await compress(body, "br");
    expect(gunzipSync(gzipped).equals(body)).toBe(true);
    expect(brotliDecompressSync(brotli).equals(body)).toBe(true);
    expect(gzipped.length).toBeLessThan(body.length / 4);
    expect(brotli.length).toBeLessThan(body.length / 4);
  });
});
