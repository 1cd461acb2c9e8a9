import { describe, expect, it } from "vitest";
import {
  bytesSize,
  createColors,
  formatLabels,
  goFloat,
  humanSize,
  shortId,
  timeAgo,
  truncate,
} from "../../src/cli/render/format.ts";
import { formatPorts } from "../../src/cli/render/ports.ts";
import type { Port } from "../../src/core/containers/container-types.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const before = (seconds: number) => NOW - seconds * 1000;

describe("timeAgo, in the docker CLI's words", () => {
  it.each([
    [0.5, "Less than a second ago"],
    [1, "1 second ago"],
    [45, "45 seconds ago"],
    [90, "About a minute ago"],
    [180, "3 minutes ago"],
    [3600, "About an hour ago"],
    [5 * 3600, "5 hours ago"],
    [47 * 3600, "47 hours ago"],
    [3 * 86400, "3 days ago"],
    [20 * 86400, "2 weeks ago"],
    [90 * 86400, "3 months ago"],
    [800 * 86400, "2 years ago"],
    [-30, "Less than a second ago"],
  ])("%d s → %s", (seconds, text) => {
    expect(timeAgo(before(seconds), NOW)).toBe(text);
  });

  it("takes ISO strings and ignores what is not a date", () => {
    expect(timeAgo("2026-11-21T11:57:00Z", NOW)).toBe("3 minutes ago");
    expect(timeAgo("0001-01-01T00:00:00Z", NOW)).toMatch(/years ago$/);
    expect(timeAgo("nope", NOW)).toBe("");
  });
});

// docker's own numbers: go-units' size_test.go, and what docker printed where issue 20 compared.
describe("sizes in docker's units", () => {
  it.each([
    [1000, 4, "1kB"],
    [1024, 4, "1.024kB"],
    [1000000, 4, "1MB"],
    [1048576, 4, "1.049MB"],
    [2e6, 4, "2MB"],
    [3.42e9, 4, "3.42GB"],
    [5.372e12, 4, "5.372TB"],
    [2.22e15, 4, "2.22PB"],
    [1e13 * 1e15, 4, "1e+04YB"],
    [0, 3, "0B"],
    [512, 3, "512B"],
    [1981430, 3, "1.98MB"], // busybox: docker images SIZE (docklens said 1.89MiB)
    [4261574, 3, "4.26MB"],
    [2890, 3, "2.89kB"], // docker stats NET I/O (docklens said 2.82KiB)
    [1125000, 3, "1.12MB"], // an exact tie goes to even, as Go's %g does
    [999600, 3, "1e+03kB"],
    [undefined, 3, ""],
  ])("HumanSizeWithPrecision(%s, %d) is %s", (bytes, precision, text) => {
    expect(humanSize(bytes, precision)).toBe(text);
  });

  it.each([
    [1024, "1KiB"],
    [1048576, "1MiB"],
    [2 * 1024 ** 2, "2MiB"],
    [3.42 * 1024 ** 3, "3.42GiB"],
    [5.372 * 1024 ** 4, "5.372TiB"],
    [2.22 * 1024 ** 5, "2.22PiB"],
    [1024 ** 5 * 1024 ** 5, "1.049e+06YiB"],
    [25275297792, "23.54GiB"], // docker stats' memory limit (docklens said 23.5GiB)
    [512, "512B"],
    [undefined, ""],
  ])("BytesSize(%s) is %s", (bytes, text) => {
    expect(bytesSize(bytes)).toBe(text);
  });

  // What `docker version --format '{{printf "%.3g" X}}'` prints (Go 1.24's fmt).
  it.each([
    [1.125, 3, "1.12"],
    [1.135, 3, "1.14"],
    [999.6, 3, "1e+03"],
    [1023.5, 4, "1024"],
    [0.00001234, 3, "1.23e-05"],
    [0.001234, 3, "0.00123"],
    [100, 3, "100"],
    [-2.5, 1, "-2"],
  ])("goFloat(%s, %d) is %s", (value, precision, text) => {
    expect(goFloat(value, precision)).toBe(text);
  });
});

describe("small formatters", () => {
  it.each([
    ["0123456789abcdef0123", "0123456789ab"],
    ["sha256:29090e52f1d657e593de", "29090e52f1d6"],
    [undefined, ""],
  ])("shortId(%s) is %s", (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  it("truncates with an ellipsis", () => {
    expect(truncate("short", 20)).toBe("short");
    expect(truncate("sh -c 'while true; do echo'", 10)).toBe("sh -c 'wh…");
  });

  it("formats labels sorted, bare keys for empty values", () => {
    expect(formatLabels({ purpose: "data", empty: "" })).toBe("empty,purpose=data");
    expect(formatLabels(null)).toBe("");
  });

  it.each([
    [[{ PrivatePort: 80, Type: "tcp" }], "80/tcp"],
    [
      [
        { IP: "::", PrivatePort: 80, PublicPort: 8080, Type: "tcp" },
        { IP: "0.0.0.0", PrivatePort: 80, PublicPort: 8080, Type: "tcp" },
      ],
      "0.0.0.0:8080->80/tcp, [::]:8080->80/tcp",
    ],
    [
      [
        { PrivatePort: 53, Type: "udp" },
        { PrivatePort: 53, Type: "udp" },
      ],
      "53/udp",
    ],
    // docker ps's order: own-number ports and ranges first, by private port; mappings last.
    [
      [
        { PrivatePort: 9090, Type: "tcp" },
        { IP: "127.0.0.1", PrivatePort: 8053, PublicPort: 41000, Type: "udp" },
        { IP: "127.0.0.1", PrivatePort: 8080, PublicPort: 18080, Type: "tcp" },
      ],
      "9090/tcp, 127.0.0.1:41000->8053/udp, 127.0.0.1:18080->8080/tcp",
    ],
    [
      [
        { PrivatePort: 8002, Type: "tcp" },
        { PrivatePort: 8000, Type: "tcp" },
        { PrivatePort: 8001, Type: "tcp" },
        { PrivatePort: 9000, Type: "tcp" },
        { PrivatePort: 8001, Type: "udp" },
      ],
      "8000-8002/tcp, 9000/tcp, 8001/udp",
    ],
    [
      [
        { IP: "0.0.0.0", PrivatePort: 80, PublicPort: 80, Type: "tcp" },
        { IP: "0.0.0.0", PrivatePort: 81, PublicPort: 81, Type: "tcp" },
      ],
      "0.0.0.0:80-81->80-81/tcp",
    ],
    [[], ""],
  ])("formatPorts(%j) is %s", (ports, text) => {
    expect(formatPorts(ports as Port[])).toBe(text);
  });

  it("colours only on a TTY, never under NO_COLOR", () => {
    const tty = { isTTY: true } as NodeJS.WriteStream;
    const pipe = { isTTY: false } as NodeJS.WriteStream;
    // As many colours as chalk finds the terminal has, 16 at least.
    expect(createColors(tty, {}).level).toBeGreaterThanOrEqual(1);
    expect(createColors(pipe, {}).level).toBe(0);
    expect(createColors(tty, { NO_COLOR: "1" }).level).toBe(0);
  });
});
