import { describe, expect, it } from "vitest";
import {
  createOutputDecoder,
  type OutputLine,
} from "../../src/core/containers/container-output.ts";

/** One engine frame: stream type, three zero bytes, the payload size, the payload. */
const frame = (type: 1 | 2, text: string | Buffer) => {
  const payload = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

/** Feed `chunks` and return every line, ending included. */
function decode(
  chunks: Buffer[],
  options = { multiplexed: true, timestamps: false },
): OutputLine[] {
  const decoder = createOutputDecoder(options);
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

/** Cut a buffer into pieces of `size` bytes, as a network might deliver it. */
const slices = (buffer: Buffer, size: number) =>
  Array.from({ length: Math.ceil(buffer.length / size) }, (_, i) =>
    buffer.subarray(i * size, (i + 1) * size),
  );

const out = (text: string) => ({ stream: "stdout", time: null, text });
const err = (text: string) => ({ stream: "stderr", time: null, text });

describe("createOutputDecoder", () => {
  const stream = Buffer.concat([
    frame(1, "out 1\n"),
    frame(2, "err 1\n"),
    frame(1, "out 2\nout 3\n"),
    frame(2, "e"),
    frame(2, "rr 2\n"),
  ]);
  const expected = [out("out 1"), err("err 1"), out("out 2"), out("out 3"), err("err 2")];

  it.each([1, 2, 3, 7, 8, 9, 13, stream.length])(
    "decodes frames cut into %d-byte chunks",
    (size) => {
      expect(decode(slices(stream, size))).toEqual(expected);
    },
  );

  it("keeps a UTF-8 character split across chunks whole", () => {
    const bytes = frame(1, "héllo → wörld\n");
    expect(decode(slices(bytes, 1))).toEqual([out("héllo → wörld")]);
  });

  it("ends with a line that had no newline, and only then", () => {
    const decoder = createOutputDecoder({ multiplexed: true, timestamps: false });
    expect(decoder.push(frame(1, "no newline"))).toEqual([]);
    expect(decoder.end()).toEqual([out("no newline")]);
  });

  it("keeps empty lines", () => {
    expect(decode([frame(1, "a\n\nb\n")])).toEqual([out("a"), out(""), out("b")]);
  });

  it("reads TTY output as unframed stdout with CRLF line ends", () => {
    expect(
      decode([Buffer.from("tty-line\r\nsec"), Buffer.from("ond\r\n")], {
        multiplexed: false,
        timestamps: false,
      }),
    ).toEqual([out("tty-line"), out("second")]);
  });

  it("takes the engine's timestamps off the text", () => {
    const lines = decode(
      [
        frame(1, "2026-11-21T05:31:25.325963524Z out 1\n"),
        frame(2, "2026-11-21T05:31:26.000000001Z \n"),
      ],
      { multiplexed: true, timestamps: true },
    );
    expect(lines).toEqual([
      { stream: "stdout", time: "2026-11-21T05:31:25.325963524Z", text: "out 1" },
      { stream: "stderr", time: "2026-11-21T05:31:26.000000001Z", text: "" },
    ]);
  });

  it("leaves a line without a timestamp as it is", () => {
    expect(decode([frame(1, "plain\n")], { multiplexed: true, timestamps: true })).toEqual([
      out("plain"),
    ]);
  });

  it("makes a line the engine cut into 16 KiB pieces, each with its timestamp, one line again", () => {
    const euro = Buffer.from("€");
    const first = Buffer.concat([Buffer.from("2026-11-21T05:31:25.1Z a"), euro.subarray(0, 1)]);
    const second = Buffer.concat([Buffer.from("2026-11-21T05:31:25.2Z "), euro.subarray(1)]);
    const lines = decode(
      [
        ...slices(
          Buffer.concat([
            frame(1, first),
            frame(2, "2026-11-21T05:31:25.15Z apart\n"),
            frame(1, second),
            frame(1, "2026-11-21T05:31:25.3Z b\n"),
          ]),
          5,
        ),
      ],
      { multiplexed: true, timestamps: true },
    );
    expect(lines).toEqual([
      { stream: "stderr", time: "2026-11-21T05:31:25.15Z", text: "apart" },
      { stream: "stdout", time: "2026-11-21T05:31:25.1Z", text: "a€b" },
    ]);
  });
});
