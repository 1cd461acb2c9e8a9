import { StringDecoder } from "node:string_decoder";

/**
 * Splits a stream of NDJSON bytes (an engine's events or stats) into its lines: call the splitter
 * with each chunk as it comes, and it returns the lines that chunk completed, blank ones left out.
 * Chunks end anywhere: a line split across chunks waits for its end, and so does a UTF-8
 * character split across them, which decoding each chunk on its own would turn into U+FFFD. What
 * follows the last newline when the stream ends is no whole line and is never returned.
 *
 * @example
 * const lines = ndjsonSplitter();
 * for await (const chunk of stream) for (const line of lines(chunk)) handle(JSON.parse(line));
 */
export function ndjsonSplitter(): (chunk: Buffer) => string[] {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return (chunk) => {
    const lines = (pending + decoder.write(chunk)).split("\n");
    pending = lines.pop()!;
    return lines.filter((line) => line.trim());
  };
}
