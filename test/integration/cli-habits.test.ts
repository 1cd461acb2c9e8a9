import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { BIN, cli, dockerIds, engines, writeConfig } from "./helpers.ts";
import { startProxy } from "./proxy.ts";

/** The CLI keeps docker's habits: which containers ps lists, where options go, what Ctrl-C does. */
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
/** `docklens ps alpha -q --no-trunc ...` as a sorted list of ids. */
const psIds = async (...args: string[]) =>
  (await withConfig("ps", "alpha", "-q", "--no-trunc", ...args)).stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^alpha\//, ""))
    .sort();

/**
 * A config of the suite's clusters of these names, each with `override`; hang's disk usage is
 * limited as its other calls are.
 */
const configOf = async (file: string, names: string[], override: object = {}) => {
  const { clusters } = JSON.parse(await readFile(engines.configPath, "utf8")) as {
    clusters: Array<{ name: string }>;
  };
  return writeConfig(file, {
    clusters: clusters
      .filter((cluster) => names.includes(cluster.name))
      .map((cluster) => ({ ...cluster, diskUsageTimeoutMs: engines.hangTimeoutMs, ...override })),
  });
};

describe("ps lists what docker ps lists", () => {
  it.each([
    [[]],
    [["-f", "status=exited"]],
    [["-f", "status=paused"]],
    [["-f", "status=created"]],
    [["-f", "status=exited", "-f", "status=created"]],
    [["-f", "name=failed"]],
    [["-f", "name=frozen"]],
  ])("ps %j", async (filters) => {
    const expected = await dockerIds(engines.hostA, "ps", "-q", "--no-trunc", ...filters);
    expect(await psIds(...filters)).toEqual(expected);
  });

  it("with a status filter, the table lists the stopped containers it matches", async () => {
    const result = await withConfig("ps", "alpha", "bravo", "-f", "status=exited");
    expect(result.stdout).toMatch(/^alpha\s.*\sfailed$/m);
  });
});

describe("options go before or after the command", () => {
  it.each([
    [["--config", "CONFIG", "clusters", "--json"], /^\{/],
    [["-c", "CONFIG", "containers", "alpha"], /^CONTAINER ID\s/],
    [["--json", "-c", "CONFIG", "ps", "alpha"], /^\{/],
    [["-c", "CONFIG", "detail", "--json", "cluster", "alpha"], /^\{/],
  ])("docklens %j", async (args, output) => {
    const result = await cli(args.map((arg) => (arg === "CONFIG" ? engines.configPath : arg)));
    expect(result).toEqual({ code: 0, stdout: expect.stringMatching(output), stderr: "" });
  });
});

describe("one rule for every command across clusters", () => {
  const ACROSS = [
    ["clusters"],
    ["ps"],
    ["ps", "-a"],
    ["images"],
    ["drift"],
    ["df"],
    ["logs", "-n", "1"],
    ["stats", "--no-stream"],
  ].map((args) => [args]);
  /** With --watch, the rule holds for the first round: a failed one ends the watch. */
  const WATCHED = [["clusters"], ["ps"]].map((args) => [[...args, "--watch", "1"]]);
  it.each([...ACROSS, ...WATCHED])(
    "%j: every cluster failed, no table, the errors on stderr, exit 1",
    async (args) => {
      const result = await cli([
        ...args,
        "--config",
        await configOf("down.json", ["dead", "hang"]),
      ]);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^docklens: dead: cannot reach/),
        expect.stringMatching(/^docklens: hang: .* did not answer within/),
        "docklens: no cluster answered (2 failed)",
      ]);
      expect(result.code).toBe(1);
    },
  );

  it.each(ACROSS)(
    "%j: some failed, the table and a warning each on stderr, exit 0",
    async (args) => {
      const config = await configOf("part.json", ["alpha", "dead", "hang"]);
      const result = await cli([...args, "--config", config]);
      expect(result.stdout).toMatch(/alpha/);
      // The clusters table has a row for each cluster, its state the error's code.
      expect(result.stdout).not.toMatch(/cannot reach|did not answer/);
      if (args[0] !== "clusters") expect(result.stdout).not.toMatch(/(^|\s)(dead|hang)(\s|$)/m);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^docklens: dead: cannot reach/),
        expect.stringMatching(/^docklens: hang: .* did not answer within/),
      ]);
      expect(result.code).toBe(0);
    },
  );
});

describe("a filter value the engines refuse is the user's error", () => {
  it.each([[["ps", "alpha", "bravo"]], [["ps"]], [["containers", "alpha"]], [["images"]]])(
    "%j -f before=nope: one line naming the filter, no cluster blamed, exit 2 as any bad flag value",
    async (args) => {
      const config = await configOf("refusing.json", ["alpha", "bravo"]);
      const result = await cli([...args, "-f", "before=nope", "--config", config]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: expect.stringMatching(
          /^docklens: --filter: before=nope: not a value the engine takes \(.*nope.*\)\n$/,
        ),
      });
    },
  );
});

describe("Ctrl-C ends a watch without drawing the round it cancelled", () => {
  it.each([[["clusters"]], [["clusters", "--json"]], [["ps", "-a"]], [["ps", "--json"]]])(
    "%j --watch 1",
    async (args) => {
      // Rounds last as long as hang's time limit, so that Ctrl-C comes in one, as it does with a
      // hung engine.
      const config = await configOf("slow.json", ["alpha", "hang"], { timeoutMs: 3000 });
      const child = spawn(process.execPath, [BIN, ...args, "--watch", "1", "--config", config], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      await once(child.stdout, "data");
      await new Promise((resolve) => setTimeout(resolve, 2000));
      child.kill("SIGINT");
      const [code] = await once(child, "exit");
      expect(stdout).not.toMatch(/ENGINE_ERROR|cancel/);
      expect(stderr).not.toMatch(/ENGINE_ERROR|cancel/);
      expect(code).toBe(0);
    },
  );
});

describe("a watch keeps a mirror of each engine, as serve does", () => {
  it("ps --watch lists the engine once, then follows its events; Ctrl-C closes it all", async () => {
    const proxy = await startProxy({ path: engines.hostA.replace("unix://", "") });
    try {
      const config = await writeConfig("watched.json", {
        clusters: [{ name: "linked", host: "127.0.0.1", port: proxy.port }],
      });
      const child = spawn(process.execPath, [BIN, "ps", "--json", "--watch", "1", "-c", config], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let rounds = 0;
      child.stdout.on(
        "data",
        (chunk: Buffer) => (rounds += chunk.toString().split("\n").length - 1),
      );
      while (rounds < 3) await once(child.stdout, "data");
      child.kill("SIGINT");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      const asked = (path: string) => proxy.requests.filter((line) => line.includes(path)).length;
      // Three rounds, one list: without the mirror, each round listed the engine again.
      expect(asked("/containers/json?")).toBe(1);
      expect(asked("/events")).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

describe("docker's habits", () => {
  it("a word after -w that is no number of seconds is the next argument", async () => {
    const result = await withConfig("ps", "-w", "nope");
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^docklens: cluster "nope" not found/),
    });
  });

  it.each([
    [
      ["container", "ls", "alpha", "-a", "-q"],
      ["ps", "alpha", "-a", "-q"],
    ],
    [
      ["-c", "CONFIG", "container", "ps", "alpha", "-q"],
      ["ps", "alpha", "-q"],
    ],
    [
      ["image", "ls", "alpha", "-f", "reference=local/app:1", "--json"],
      ["images", "alpha", "-f", "reference=local/app:1", "--json"],
    ],
    [
      ["volume", "ls", "alpha", "--json"],
      ["volumes", "alpha", "--json"],
    ],
    [
      ["network", "ls", "alpha", "--json"],
      ["networks", "alpha", "--json"],
    ],
    [
      ["inspect", "container", "alpha", "web", "--json"],
      ["detail", "container", "alpha", "web", "--json"],
    ],
    [
      ["container", "inspect", "alpha", "web", "--json"],
      ["detail", "container", "alpha", "web", "--json"],
    ],
    [
      ["system", "df", "alpha"],
      ["df", "alpha"],
    ],
  ])("docker's %j is docklens' %j", async (docker, docklens) => {
    const config = (args: string[]) =>
      args.includes("CONFIG")
        ? args.map((arg) => (arg === "CONFIG" ? engines.configPath : arg))
        : [...args, "--config", engines.configPath];
    // One after the other: an engine runs one disk usage read at a time.
    const theirs = await cli(config(docker));
    const ours = await cli(config(docklens));
    expect(ours.code).toBe(0);
    // Sizes and counts may move between two reads: they aside, the same output.
    const digitless = ({ stdout, stderr, code }: typeof ours) =>
      [stdout, stderr, code].map((text) =>
        String(text)
          .replace(/[\d.]+\s?([kMGT]i?)?B?/g, "0")
          .replace(/ +/g, " "),
      );
    expect(digitless(theirs)).toEqual(digitless(ours));
  });

  /** A config of engine A alone, as alpha, and the CLI with it. */
  const withOne = async (...args: string[]) =>
    cli([...args, "--config", await configOf("one-cluster.json", ["alpha"])]);
  // Tables: an engine lists a container's ports in any order, its tables sort them.
  const pairs: Array<[left: string[], named: string[]]> = [
    [["containers"], ["containers", "alpha"]],
    [["networks"], ["networks", "alpha"]],
    [["volumes"], ["volumes", "alpha"]],
    [
      ["detail", "cluster", "--json"],
      ["detail", "cluster", "alpha", "--json"],
    ],
    [
      ["detail", "container", "shop-web", "--json"],
      ["detail", "container", "alpha", "shop-web", "--json"],
    ],
    [
      ["inspect", "web", "-f", "{{.Name}}"],
      ["inspect", "alpha", "web", "-f", "{{.Name}}"],
    ],
    [
      ["top", "shop-web"],
      ["top", "alpha", "shop-web"],
    ],
    // docker top CONTAINER [ps OPTIONS]: the words after the container are ps's.
    [
      ["top", "shop-web", "aux"],
      ["top", "alpha", "shop-web", "--ps-args", "aux"],
    ],
    [
      ["top", "shop-web", "-o", "pid,comm"],
      ["top", "alpha", "shop-web", "--ps-args", "-o pid,comm"],
    ],
    // logs and stats: a word that names no cluster names a container.
    [
      ["logs", "failed", "-n", "3"],
      ["logs", "alpha", "failed", "-n", "3"],
    ],
    [
      ["stats", "shop-web", "--no-stream", "--json"],
      ["stats", "alpha", "shop-web", "--no-stream", "--json"],
    ],
  ];
  // What moves between two reads: times, CPU and memory figures (shop-web runs one process).
  const steady = (text: string) =>
    text
      .replace(/Less than a second|About an? (minute|hour)|\d+ (second|minute|hour)s?/g, "a while")
      .replace(/\d+/g, "0")
      .replace(/ +/g, " ");
  // Each pair its own test: on CI's loaded machine two runs of the CLI can take seconds.
  it.each(pairs)("with one cluster in the config, %j is as with it named", async (left, named) => {
    const [ours, theirs] = await Promise.all([withOne(...left), withOne(...named)]);
    expect(ours.code, `${left.join(" ")}: ${ours.stderr}`).toBe(0);
    expect(steady(ours.stdout), left.join(" ")).toBe(steady(theirs.stdout));
  });

  it("a left-out cluster: more missing is a usage error; with several, which to name", async () => {
    // More than the cluster missing is commander's usage error.
    expect(await withOne("top")).toMatchObject({ code: 2, stdout: "" });
    expect((await withOne("top")).stderr).toBe("docklens: missing required argument 'container'\n");
    // With several clusters, which to name: nothing is asked.
    for (const args of [["volumes"], ["top", "web"]]) {
      const result = await withConfig(...args);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toMatch(
        /^docklens: name a cluster: there are \d+ \(1 alpha, 7 bravo, /,
      );
    }
  });

  it("a command group alone prints its help and exits 0, as docker's do", async () => {
    const result = await cli(["token"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: docklens token \[options\] \[command\]/);
    expect(result.stdout).toMatch(/^\s+hash\s/m);
  });

  it("detail alone lists the detail commands as they are typed; --json the route's body", async () => {
    const result = await withConfig("detail");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^docklens detail container <cluster> <name>\s+what the engine knows/m,
    );
    expect(result.stdout).not.toMatch(/\/detail\//);
    expect((await withConfig("detail", "--json")).stdout).toMatch(
      /"\/detail\/:cluster\/container\/:containerName"/,
    );
  });

  it("events print an engine's status lines on stderr, the events on stdout", async () => {
    const result = await withConfig("events", "alpha", "dead", "--since", "10m", "--until", "1s");
    expect(result.stdout).toMatch(/^\S+Z alpha container /m);
    // Ids are hex: "dead" may be in one; a status line starts with the cluster.
    expect(result.stdout).not.toMatch(/^(docklens: )?dead: /m);
    expect(result.stderr).toMatch(/^docklens: dead: disconnected \(cannot reach/m);
  });

  it("the help says where docklens finds engines with no config", async () => {
    const help = (await cli(["--help"])).stdout;
    expect(help).toMatch(/docker context/);
    expect(help).toMatch(/Podman/);
  });
});

describe("DEBUG=modem", () => {
  it("logs each engine request on stderr, as dockerode's docker-modem does; unset, stderr stays empty", async () => {
    const debug = await cli(["containers", "alpha", "--json", "--config", engines.configPath], {
      env: { DEBUG: "modem" },
    });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(/ modem Sending: \{\n\s+path: '\/containers\/json\?/);
    const quiet = await withConfig("containers", "alpha", "--json");
    expect(quiet).toEqual({ code: 0, stdout: expect.stringMatching(/^\{/), stderr: "" });
  });
});
