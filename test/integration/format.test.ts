import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cli, docker, engines } from "./helpers.ts";

const exec = promisify(execFile);

/** docklens' --format and sizes against the docker CLI's, on the same engine (alpha is hostA). */
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

/** Containers of the fixtures only: other test files may add some of their own meanwhile. */
const FIXTURES = ["--filter", "label=app"];

/** docklens' and docker's output for the same format; rows sorted (docklens orders them its own way). */
async function both(
  docklens: string[],
  dockerArgs: string[],
): Promise<{ mine: string[]; theirs: string[]; code: number; stderr: string }> {
  const [result, theirs] = await Promise.all([
    withConfig(...docklens),
    // Untrimmed: a table's last cell may end in spaces, as docker's tabwriter pads it.
    exec("docker", ["-H", engines.hostA, ...dockerArgs]).then((result) => result.stdout),
  ]);
  const lines = (text: string) => text.replace(/\n$/, "").split("\n");
  return {
    mine: lines(result.stdout),
    theirs: lines(theirs),
    code: result.code,
    stderr: result.stderr,
  };
}

/** A table's header, then its rows sorted. */
const table = (lines: string[]) => [lines[0], ...lines.slice(1).sort()];

describe("--format, as the docker CLI prints it", () => {
  it.each([
    "{{.ID}} {{.Names}} {{.Image}} {{.Command}} {{.State}} {{.Ports}}",
    '{{.ID}}|{{.Labels}}|{{.Label "app"}}|{{.Label "nope"}}|{{.Mounts}}|{{.LocalVolumes}}|{{.Networks}}|{{.CreatedAt}}',
    '{{json .Labels}} {{upper .Names}} {{join (split .Labels ",") "+"}} {{truncate .ID 5}}|{{pad .State 1 1}}|{{title .State}}',
    "{{.ID}}\\t{{println .Names}}",
    // Go's actions and functions, as inspect -f runs them (inspect-templates.test.ts).
    '{{if eq .State "running"}}up{{else if eq .State "exited"}}down{{else}}{{.State}}{{end}} {{.Names}}',
    '{{printf "%-12s|%3d|%q" .Names (len .ID) .Image}} {{range $i, $n := split .Names ","}}{{$i}}{{$n}}{{end}}',
    '{{$id := .ID}}{{with .Label "app"}}{{.}}:{{slice $id 0 4}}{{else}}-{{end}} {{and .Mounts "m"}}{{or .Mounts "none"}}',
  ])("containers alpha --format '%s' is docker ps -a's", async (format) => {
    const { mine, theirs, code } = await both(
      ["containers", "alpha", "--format", format, ...FIXTURES],
      ["ps", "-a", "--format", format, ...FIXTURES],
    );
    expect(code).toBe(0);
    expect(mine.sort()).toEqual(theirs.sort());
    expect(mine.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    'table {{.Names}}\\t{{.State}}\\t{{.Networks}}\\t{{.Label "tier"}}\\t{{.Ports}}',
    "table {{.ID}} {{.Image}}\\t{{.CreatedAt}}\\t{{.LocalVolumes}}\\t{{.Mounts}}\\t{{.Labels}}",
  ])("containers alpha --format '%s': docker's header and columns", async (format) => {
    const { mine, theirs } = await both(
      ["containers", "alpha", "--format", format, ...FIXTURES],
      ["ps", "-a", "--format", format, ...FIXTURES],
    );
    expect(table(mine)).toEqual(table(theirs));
  });

  it("json and {{json .}}: docker's objects, one a line (ps adds Cluster and Project)", async () => {
    for (const format of ["json", "{{json .}}"]) {
      const { mine, theirs } = await both(
        ["ps", "alpha", "--format", format, ...FIXTURES],
        ["ps", "--format", format, ...FIXTURES],
      );
      // RunningFor is worked out by each client from its own clock. Sizes are asked for with
      // {{json .}} (every field) and not with json, by both.
      const parsed = (lines: string[]) =>
        lines
          .map((line) => {
            const { RunningFor, Cluster, Project, Status, ...rest } = JSON.parse(line);
            expect(RunningFor).toMatch(/ago$/);
            expect(rest.Size).toMatch(format === "json" ? /^0B$/ : /^\d.*B \(virtual \d/);
            expect(Status).toMatch(/^Up /);
            return rest as { ID: string };
          })
          .sort((a, b) => a.ID.localeCompare(b.ID));
      expect(parsed(mine)).toEqual(parsed(theirs));
      expect(JSON.parse(mine[0]!)).toMatchObject({ Cluster: "alpha" });
    }
  });

  it("sizes: a template naming .Size asks the engine for them, and -s adds docker ps -s's SIZE", async () => {
    const format = "{{.Names}} {{.Size}}";
    const { mine, theirs } = await both(
      ["containers", "alpha", "--format", format, ...FIXTURES],
      ["ps", "-a", "--format", format, ...FIXTURES],
    );
    expect(mine.sort()).toEqual(theirs.sort());
    expect(mine.join("\n")).toMatch(/\(virtual \d/);
    const sized = await withConfig("containers", "alpha", "-s", ...FIXTURES);
    const [header, ...rows] = sized.stdout.trimEnd().split("\n");
    expect(header).toMatch(/ NAMES +SIZE$/);
    const named = (line: string) => /(\S+) {2,}(\S+B(?: \(virtual [^)]+\))?)$/.exec(line)!;
    expect(rows.map((row) => `${named(row)[1]} ${named(row)[2]}`).sort()).toEqual(theirs.sort());
  });

  it("ps --format '{{.Cluster}}' names each container's cluster", async () => {
    const { mine, theirs } = await both(
      ["ps", "alpha", "--format", "{{.Cluster}} {{.Names}}", ...FIXTURES],
      ["ps", "--format", "alpha {{.Names}}", ...FIXTURES],
    );
    expect(mine.sort()).toEqual(theirs.sort());
  });

  it.each([
    "{{.Repository}}:{{.Tag}} {{.ID}} {{.Size}} {{.VirtualSize}} {{.Digest}} {{.CreatedAt}} {{.SharedSize}}",
    "table {{.Repository}}\\t{{.Tag}}\\t{{.ID}}\\t{{.Size}}",
  ])("images alpha --format '%s' is docker images'", async (format) => {
    const { mine, theirs, code } = await both(
      ["images", "alpha", "--format", format],
      ["images", "--format", format],
    );
    expect(code).toBe(0);
    const sorted = (lines: string[]) => (format.startsWith("table") ? table(lines) : lines.sort());
    expect(sorted(mine)).toEqual(sorted(theirs));
  });

  it("images --format json: docker's objects but the containers counted and the cluster", async () => {
    const { mine, theirs } = await both(
      ["images", "alpha", "--format", "json"],
      ["images", "--format", "json"],
    );
    const parsed = (lines: string[]) =>
      lines
        .map((line) => {
          const { CreatedSince, Containers, Cluster, ...rest } = JSON.parse(line);
          return rest as { ID: string; Repository: string; Tag: string };
        })
        .sort((a, b) => `${a.Repository}:${a.Tag}`.localeCompare(`${b.Repository}:${b.Tag}`));
    expect(parsed(mine)).toEqual(parsed(theirs));
    expect(mine.join("\n")).toContain('"Digest":"\\u003cnone\\u003e"');
  });

  it.each([
    ["containers", "alpha", "{{.Nope}}", "ps"],
    ["ps", "alpha", "{{.Names", "ps"],
    ["images", "alpha", "{{nope .ID}}", "images"],
  ])(
    "%s %s --format '%s' is a template error, exit 2, where docker refuses it too",
    async (...[command, cluster, format, dockerCommand]) => {
      const result = await withConfig(command, cluster, "--format", format);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^docklens: template parsing error: template: :1/);
      const theirs = await docker(engines.hostA, dockerCommand, "--format", format).then(
        () => "",
        (error: { stderr: string }) => error.stderr,
      );
      const words = /template: .*/.exec(result.stderr)![0];
      expect(theirs).toContain(words);
    },
  );
});

describe("sizes in docker's units", () => {
  it("images: SIZE as docker images prints it", async () => {
    const [mine, theirs] = await Promise.all([
      withConfig("images", "alpha"),
      docker(engines.hostA, "images", "--format", "{{.Repository}} {{.Tag}} {{.Size}}"),
    ]);
    const rows = mine.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(/\s{2,}/))
      .map(([repository, tag, , , size]) => `${repository} ${tag} ${size}`);
    expect(rows.sort()).toEqual(theirs.split("\n").sort());
    expect(theirs).toMatch(/\d(kB|MB)$/m);
  });

  it("stats: the memory limit as docker stats prints it; detail cluster: Total Memory as docker info", async () => {
    const [stats, theirs, detail, info] = await Promise.all([
      withConfig("stats", "alpha", "web"),
      docker(engines.hostA, "stats", "--no-stream", "--format", "{{.MemUsage}}", "web"),
      withConfig("detail", "cluster", "alpha"),
      docker(engines.hostA, "info"),
    ]);
    const limit = theirs.split(" / ")[1]!;
    expect(limit).toMatch(/^\d+(\.\d+)?[KMGT]iB$/);
    expect(stats.stdout).toContain(` / ${limit} `);
    const memory = /Total Memory: (\S+)/.exec(info)![1]!;
    expect(detail.stdout).toMatch(new RegExp(`^Memory\\s+${memory.replace(".", "\\.")}$`, "m"));
  });
});
