import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { cli, docker, dockerIds, engines, writeConfig } from "./helpers.ts";
import { displayWidth } from "../support/display-width.ts";

/** docklens keeps docker's habits where docker has them, and says so where a selection is empty. */
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);

/** The suite's clusters of these names, each with `override`. */
const configOf = async (file: string, names: string[], override: object = {}) => {
  const { clusters } = JSON.parse(await readFile(engines.configPath, "utf8")) as {
    clusters: Array<{ name: string }>;
  };
  return writeConfig(file, {
    clusters: clusters
      .filter((cluster) => names.includes(cluster.name))
      .map((cluster) => ({ ...cluster, ...override })),
  });
};

describe("tables", () => {
  it("df of one cluster names it in the CLUSTER column", async () => {
    const result = await withConfig("df", "alpha");
    expect(result.code).toBe(0);
    const [head, ...rows] = result.stdout.trim().split("\n");
    expect(head).toMatch(/^CLUSTER\s+TYPE\s/);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(row).toMatch(/^alpha\s+(Images|Containers|Local Volumes|Build Cache)\s/);
  });

  it("clusters aligns its columns after an emoji icon (🦭) as after 🐳", async () => {
    const { clusters } = JSON.parse(await readFile(engines.configPath, "utf8")) as {
      clusters: Array<{ name: string }>;
    };
    const config = await writeConfig("icons.json", {
      clusters: clusters
        .filter((cluster) => ["alpha", "bravo"].includes(cluster.name))
        .map((cluster, index) => ({ ...cluster, icon: index ? "🦭" : "🐳" })),
    });
    const result = await cli(["clusters", "--config", config]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    const endpointAt = (line: string) =>
      displayWidth(line.slice(0, line.search(/ENDPOINT|unix:|tcp:|\/|\d+\.\d+\.\d+\.\d+/)));
    expect(lines).toHaveLength(3);
    expect(new Set(lines.map(endpointAt)).size).toBe(1);
  });
});

describe("newest first, as docker lists containers", () => {
  /** The NAMES column (or `header`'s) of a table, found by its header. */
  const names = (table: string, header = "NAMES") => {
    const [head, ...rows] = table.trimEnd().split("\n");
    const at = head!.search(new RegExp(`(?<= )${header}(?= |$)`));
    return rows.map((row) => row.slice(at).split(/\s{2,}/)[0]);
  };

  it("ps, ps -a and ps -q of one cluster: docker's order, and no CLUSTER column, as docker's", async () => {
    for (const all of [[], ["-a"]]) {
      const table = await withConfig("ps", "alpha", ...all);
      expect(table.stdout).toMatch(/^CONTAINER ID\s+IMAGE\s/);
      expect(names(table.stdout)).toEqual(
        (await docker(engines.hostA, "ps", ...all, "--format", "{{.Names}}")).split("\n"),
      );
      const ids = await withConfig("ps", "alpha", ...all, "-q");
      expect(ids.stdout.trim()).toBe(await docker(engines.hostA, "ps", ...all, "-q"));
    }
  });

  it("ps of a config of one cluster has no CLUSTER column either; images neither", async () => {
    const one = await configOf("one-cluster.json", ["alpha"]);
    const [ps, images] = await Promise.all([cli(["ps", "-c", one]), cli(["images", "-c", one])]);
    expect(ps.stdout).toMatch(/^CONTAINER ID\s+IMAGE\s/);
    expect(images.stdout).toMatch(/^REPOSITORY\s+TAG\s/);
  });

  it("ps of several clusters: newest first, each with its CLUSTER", async () => {
    const table = await withConfig("ps", "alpha", "bravo", "-a");
    expect(table.stdout).toMatch(/^CLUSTER\s+CONTAINER ID\s/);
    const created = await withConfig("ps", "alpha", "bravo", "-a", "--format", "{{.CreatedAt}}");
    const times = created.stdout
      .trim()
      .split("\n")
      .map((line) => Date.parse(line.slice(0, 25)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("stats --no-stream of one cluster lists its containers in docker stats's order", async () => {
    const ours = await withConfig("stats", "alpha", "--no-stream");
    const theirs = await docker(engines.hostA, "stats", "--no-stream", "--format", "{{.Name}}");
    // docklens stats leaves paused containers out: the order of the others is docker's.
    const mine = names(ours.stdout, "NAME");
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine).toEqual(theirs.split("\n").filter((name) => mine.includes(name)));
  });
});

describe("images: docker's -a and --digests", () => {
  it("images -a -q of one cluster is docker images -a -q", async () => {
    const ours = await withConfig("images", "alpha", "-a", "-q");
    expect(ours.code).toBe(0);
    expect(ours.stdout.trim().split("\n").sort()).toEqual(
      (await docker(engines.hostA, "images", "-a", "-q")).split("\n").sort(),
    );
  });

  it("images --digests: docker's DIGEST column and rows", async () => {
    const table = await withConfig("images", "alpha", "--digests");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^REPOSITORY\s+TAG\s+DIGEST\s+IMAGE ID\s+CREATED\s+SIZE\s/);
    const format = "{{.Repository}} {{.Tag}} {{.Digest}} {{.ID}}";
    const ours = await withConfig("images", "alpha", "--digests", "--format", format);
    expect(ours.stdout.trim().split("\n").sort()).toEqual(
      (await docker(engines.hostA, "images", "--digests", "--format", format)).split("\n").sort(),
    );
  });
});

describe("events --format, as docker events --format", () => {
  /** Every event of alpha's backlog up to a second ago, by docklens and by docker. */
  const both = async (ours: string, theirs = ours) => {
    const range = ["--since", "1", "--until", String(Math.floor(Date.now() / 1000) - 1)];
    return Promise.all([
      withConfig("events", "alpha", ...range, "--format", ours),
      docker(engines.hostA, "events", ...range, "--format", theirs),
    ]);
  };

  it("a template an event, docker's fields", async () => {
    const [ours, theirs] = await both(
      "{{.Type}} {{.Action}} {{.Actor.ID}} {{.Time}} {{.TimeNano}} {{.Scope}}",
    );
    expect(ours).toMatchObject({ code: 0, stderr: "" });
    expect(theirs.split("\n").length).toBeGreaterThan(2);
    expect(ours.stdout.trim()).toBe(theirs);
    const [cluster] = await both("{{.Cluster}}", "{{.Type}}");
    expect(new Set(cluster.stdout.trim().split("\n"))).toEqual(new Set(["alpha"]));
  });

  it("json: each event as the engine sent it, with its cluster", async () => {
    const [ours, theirs] = await both("json", "{{json .}}");
    expect(ours).toMatchObject({ code: 0, stderr: "" });
    const events = ours.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.every((event) => event.cluster.name === "alpha")).toBe(true);
    // docklens escapes control characters in every string before any view, `{{json .}}` too,
    // where docker's JSON carries them encoded: the events of another file's hostile label
    // (a newline in it) are compared apart, by their count.
    const expected = theirs.split("\n").map((line) => JSON.parse(line));
    const hostile = expected.map((event) =>
      Object.values(event.Actor?.Attributes ?? {}).some((value) =>
        /[\u0000-\u001f\u007f]/.test(String(value)),
      ),
    );
    expect(events).toHaveLength(expected.length);
    expect(events.filter((_, i) => !hostile[i]).map(({ cluster: _, ...event }) => event)).toEqual(
      expected.filter((_, i) => !hostile[i]),
    );
  });
});

describe("top CONTAINER [ps OPTIONS], as docker top", () => {
  /** A table's words, a line each: columns aligned otherwise than docker's. */
  const words = (text: string) =>
    text
      .trim()
      .split("\n")
      .map((line) => line.trim().split(/\s+/).join(" "));

  it.each([[["-o", "pid,comm"]], [["-o", "pid,ppid,comm"]]])(
    "top alpha shop-web %j prints docker top's processes",
    async (psOptions) => {
      // shop-web runs one process: the same in both reads.
      const ours = await withConfig("top", "alpha", "shop-web", ...psOptions);
      expect(ours).toMatchObject({ code: 0, stderr: "" });
      expect(words(ours.stdout)).toEqual(
        words(await docker(engines.hostA, "top", "shop-web", ...psOptions)),
      );
    },
  );

  it("ps's options after the container and --ps-args together is a usage error; ps's e is refused", async () => {
    const both = await withConfig("top", "alpha", "web", "aux", "--ps-args", "-o pid");
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toMatch(/--ps-args, not both/);
    expect(await withConfig("top", "alpha", "web", "auxe")).toMatchObject({ code: 2, stdout: "" });
  });
});

describe("info and version, as docker's, of each cluster's engine", () => {
  it("info alpha --format is docker info --format; the table docker info's Server section", async () => {
    const format =
      "{{.ServerVersion}} {{.Containers}} {{.Images}} {{.Driver}} {{.NCPU}} {{.OSType}}";
    const ours = await withConfig("info", "alpha", "--format", format);
    expect(ours).toMatchObject({ code: 0, stderr: "" });
    expect(ours.stdout.trim()).toBe(await docker(engines.hostA, "info", "--format", format));
    const version = await docker(engines.hostA, "info", "--format", "{{.ServerVersion}}");
    const table = await withConfig("info", "alpha");
    expect(table.stdout.split("\n")).toContain(` Server Version: ${version}`);
    expect(table.stdout).toMatch(/^Cluster: alpha\nServer:\n Containers: \d+\n {2}Running: \d+$/m);
    // --json: the body of the route it mirrors.
    const json = JSON.parse((await withConfig("info", "alpha", "--json")).stdout);
    expect(json).toMatchObject({ cluster: { name: "alpha" }, docker: { ServerVersion: version } });
    const all = await withConfig("info", "alpha", "--format", "{{.Name}}");
    expect(all.stdout.trim()).toBe(await docker(engines.hostA, "info", "--format", "{{.Name}}"));
  });

  it("version alpha --format is docker version --format of the server; the table its sections", async () => {
    const format = "{{.Server.Version}} {{.Server.APIVersion}} {{.Server.Os}}/{{.Server.Arch}}";
    const ours = await withConfig("version", "alpha", "--format", format);
    expect(ours).toMatchObject({ code: 0, stderr: "" });
    expect(ours.stdout.trim()).toBe(await docker(engines.hostA, "version", "--format", format));
    const table = await cli(["version", "-c", await configOf("two.json", ["alpha", "bravo"])]);
    expect(table.stdout).toMatch(/^Client: docklens\n Version: \d+\.\d+/);
    expect(table.stdout).toMatch(/^Server: alpha\n Version: \S+\n API version: 1\.\d+ /m);
    expect(table.stdout).toMatch(/^Server: bravo$/m);
    const json = JSON.parse((await withConfig("version", "alpha", "--json")).stdout);
    expect(json.versions[0]).toMatchObject({
      cluster: { name: "alpha" },
      version: { ApiVersion: expect.any(String) },
    });
  });
});

describe("df -v, as docker system df -v", () => {
  it("each section has docker's columns after CLUSTER, and its rows", async () => {
    const ours = await withConfig("df", "alpha", "-v");
    expect(ours).toMatchObject({ code: 0, stderr: "" });
    const theirs = await docker(engines.hostA, "system", "df", "-v");
    /** A section's header (columns by two or more spaces) and its rows' first cells. */
    const section = (text: string, title: string, cluster: boolean) => {
      const lines = text
        .split(`${title} space usage:\n\n`)[1]!
        .split("\n\n")[0]!
        .split("\n")
        .filter(Boolean);
      const cells = (line: string) =>
        line
          .trim()
          .split(/\s{2,}/)
          .slice(cluster ? 1 : 0);
      return {
        head: cells(lines[0]!),
        first: lines
          .slice(1)
          .map((line) => cells(line)[0])
          .sort(),
      };
    };
    for (const title of ["Images", "Containers", "Local Volumes"]) {
      const mine = section(ours.stdout, title, true);
      const docker = section(theirs, title, false);
      expect(mine.head, title).toEqual(docker.head);
      expect(mine.first, title).toEqual(docker.first);
    }
    expect(section(ours.stdout, "Containers", true).head).toEqual([
      "CONTAINER ID",
      "IMAGE",
      "COMMAND",
      "LOCAL VOLUMES",
      "SIZE",
      "CREATED",
      "STATUS",
      "NAMES",
    ]);
  });
});

describe("ids for docker's own commands", () => {
  it("ps -q of one cluster prints bare ids, as docker ps -q, for docker stop $(docklens ps -q alpha)", async () => {
    const ours = (await withConfig("ps", "alpha", "-q")).stdout.trim().split("\n").sort();
    expect(ours).toEqual(await dockerIds(engines.hostA, "ps", "-q"));
  });

  it("ps -q and images -q of a config of one cluster print bare ids, as docker's, with no cluster named", async () => {
    const one = await writeConfig("one.json", {
      clusters: [{ name: "alpha", host: engines.hostA }],
    });
    const [ps, images] = await Promise.all([
      cli(["ps", "-q", "--config", one]),
      cli(["images", "-q", "--config", one]),
    ]);
    expect(ps.stdout.trim().split("\n").sort()).toEqual(await dockerIds(engines.hostA, "ps", "-q"));
    expect(images.stdout.trim().split("\n").sort()).toEqual(
      (await docker(engines.hostA, "images", "-q")).split("\n").sort(),
    );
  });

  it("ps -q of several clusters, or of all, prints cluster/id", async () => {
    const lines = (await withConfig("ps", "alpha", "bravo", "-q")).stdout.trim().split("\n");
    expect(lines.every((line) => /^(alpha|bravo)\/[0-9a-f]{12}$/.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith("bravo/"))).toBe(true);
  });

  it.each([[["-n", "3"]], [["-n", "1"]], [["-l"]], [["-n", "2", "-f", "status=exited"]]])(
    "ps %j -q --no-trunc is docker's, in docker's order",
    async (args) => {
      const ours = (await withConfig("ps", "alpha", ...args, "-q", "--no-trunc")).stdout.trim();
      expect(ours).toBe(await docker(engines.hostA, "ps", ...args, "-q", "--no-trunc"));
    },
  );

  it("ps -n and -l print docker's table, newest first, and refuse what is no number", async () => {
    const table = await withConfig("ps", "alpha", "-n", "2");
    expect(table.stdout.trim().split("\n")).toHaveLength(3);
    const bad = await withConfig("ps", "-n", "many");
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toMatch(/-n, --last <n>.*expected a whole number/);
  });

  it("images -q of one cluster is docker images -q; of several, cluster/id", async () => {
    // In the engine's order, as the other images tests compare them.
    const ours = (await withConfig("images", "alpha", "-q")).stdout.trim().split("\n");
    const theirs = (await docker(engines.hostA, "images", "-q")).split("\n");
    expect(ours.sort()).toEqual(theirs.sort());
    const across = (await withConfig("images", "alpha", "bravo", "-q")).stdout.trim().split("\n");
    expect(across.every((line) => /^(alpha|bravo)\/[0-9a-f]{12}$/.test(line))).toBe(true);
  });
});

describe("inspect is docker inspect, of one cluster", () => {
  it.each([
    [["web", "-f", "{{.State.Status}} {{.Name}} {{.Config.Image}}"]],
    [["local/busybox:1", "--format", "{{.Os}}/{{.Architecture}} {{.RepoTags}}"]],
    [["data", "-f", "{{.Driver}} {{.Name}}"]],
    [["lens-net", "-f", "{{.Driver}} {{.Name}} {{json .IPAM.Config}}"]],
    [["web", "sick", "-f", "{{.Name}}"]],
    [["data", "--type", "volume", "-f", "{{.Name}}"]],
    [["web", "-f", "{{.Config.Cmd}} {{.State.Pid | print}} {{.HostConfig.NetworkMode}}"]],
  ])("inspect alpha %j prints what docker inspect prints", async (args) => {
    const ours = await withConfig("inspect", "alpha", ...args);
    expect(ours.stderr).toBe("");
    expect(ours.stdout.trim()).toBe(await docker(engines.hostA, "inspect", ...args));
  });

  it.each([["{{.Nope}}"], ["{{.State.Nope}}"]])(
    "-f %s: a key the body does not have is docker's template error",
    async (format) => {
      const theirs = await docker(engines.hostA, "inspect", "web", "-f", format).catch(
        (error: { stderr: string }) => error.stderr.trim(),
      );
      expect(theirs).toMatch(/^template parsing error: .*map has no entry for key/);
      const ours = await withConfig("inspect", "alpha", "web", "-f", format);
      expect(ours).toEqual({ code: 2, stdout: "", stderr: `docklens: ${theirs}\n` });
    },
  );

  it("without --format, a JSON array of the bodies as docker prints it, secrets hidden", async () => {
    const ours = await withConfig("inspect", "alpha", "lens-net");
    expect(ours.stdout.trim()).toBe(await docker(engines.hostA, "inspect", "lens-net"));
    const web = await withConfig("inspect", "alpha", "web");
    expect(web.stdout).toMatch(/^\[\n {4}\{\n {8}"Id": /);
    // `<` and `>` as Go's JSON writes them.
    expect(web.stdout).toMatch(/"DB_PASSWORD=\\u003credacted\\u003e"/);
  });

  it("a name found nowhere fails after what was found, as docker's", async () => {
    const result = await withConfig("inspect", "alpha", "web", "nope", "-f", "{{.Name}}");
    expect(result).toEqual({
      code: 1,
      stdout: "/web\n",
      stderr: "docklens: no such object: nope\n",
    });
    const typed = await withConfig("inspect", "alpha", "web", "--type", "volume");
    expect(typed.code).toBe(1);
    expect(typed.stderr).toBe("docklens: no such volume: web\n");
  });

  it("with one cluster, every argument is a name, as docker inspect's; naming the cluster still works", async () => {
    const format = "{{.Name}} {{.State.ExitCode}}";
    const theirs = await docker(engines.hostA, "inspect", "-f", format, "web", "failed");
    expect(theirs).toBe("/web 0\n/failed 3");
    const config = await configOf("inspect-one.json", ["alpha"]);
    for (const args of [
      ["web", "failed"],
      ["alpha", "web", "failed"],
    ]) {
      const ours = await cli(["inspect", "-f", format, ...args, "--config", config]);
      expect(ours).toEqual({ code: 0, stdout: `${theirs}\n`, stderr: "" });
    }
    // Of several clusters, the first word is the cluster.
    const several = await withConfig("inspect", "-f", format, "alpha", "web", "failed");
    expect(several).toEqual({ code: 0, stdout: `${theirs}\n`, stderr: "" });
  });

  it("inspect <kind> is still detail <kind>", async () => {
    const ours = await withConfig("inspect", "container", "alpha", "web", "--json");
    expect(JSON.parse(ours.stdout).Name).toBe("/web");
  });
});

describe("groups and empty selections", () => {
  it.each([["container"], ["image"], ["network"], ["volume"], ["system"]])(
    "docklens %s alone prints the group's help, exit 0, as docker's",
    async (group) => {
      await docker(engines.hostA, group);
      const result = await cli([group]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toMatch(new RegExp(`^Usage: docklens ${group} COMMAND`));
      expect(result.stdout).toMatch(/^ {2}(ls|df) +docklens (ps|images|networks|volumes|df)$/m);
    },
  );

  it.each([
    [["logs", "--project", "nope"], "no container matches --project nope"],
    [
      ["logs", "alpha", "--filter", "name=nope", "-f"],
      "no container matches cluster alpha --filter name=nope",
    ],
    [["stats", "--project", "nope", "--no-stream"], "no running container matches --project nope"],
    [["stats", "--project", "nope"], "no running container matches --project nope"],
  ])("%j says so on stderr and exits 1", async (args, message) => {
    const config = await configOf("answering.json", ["alpha", "bravo"]);
    expect(await cli([...args, "--config", config])).toEqual({
      code: 1,
      stdout: "",
      stderr: `docklens: ${message}\n`,
    });
  });

  it("with clusters that did not answer, it names them", async () => {
    const result = await withConfig("logs", "--project", "nope");
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(
      /^docklens: no container matches --project nope on the clusters that answered \(not: .*dead.*\)$/m,
    );
  });
});

describe("config", () => {
  it("lists the scoped tokens with their globs, never their values or hashes", async () => {
    const sha256 = "a".repeat(64);
    const config = await configOf("tokens.json", ["alpha", "bravo"]);
    const body = JSON.parse(await readFile(config, "utf8")) as object;
    const withTokens = await writeConfig("tokens.json", {
      ...body,
      tokens: [
        { name: "ops", sha256, clusters: ["*"] },
        { name: "team-b", env: "TEAM_B_TOKEN", clusters: ["bravo", "br*"] },
      ],
    });
    const result = await cli(["config", "--config", withTokens]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^TOKEN\s+CLUSTERS$/m);
    expect(result.stdout).toMatch(/^ops\s+\*$/m);
    expect(result.stdout).toMatch(/^team-b\s+bravo,br\*$/m);
    expect(result.stdout).not.toMatch(/aaaa|TEAM_B_TOKEN/);
    const json = await cli(["config", "--config", withTokens, "--json"]);
    expect(JSON.parse(json.stdout).tokens).toEqual([
      { name: "ops", clusters: ["*"] },
      { name: "team-b", clusters: ["bravo", "br*"] },
    ]);
  });

  it("lists the alert rules and receivers, where each sends described, never in clear", async () => {
    const body = JSON.parse(await readFile(await configOf("alerting.json", ["alpha"]), "utf8"));
    const config = await writeConfig("alerting.json", {
      ...body,
      alerts: {
        receivers: [
          { name: "chat", slack: "https://hooks.slack.com/services/T0/B0/s3cr3t" },
          { name: "am", alertmanager: "http://user:pa55@127.0.0.1:9093" },
          { name: "hook", webhook: { env: "HOOK_URL" } },
        ],
        rules: [
          { name: "crashed", when: "exited", notify: ["chat"] },
          { name: "sick", when: "unhealthy", cluster: "alpha" },
        ],
      },
    });
    const result = await cli(["config", "--config", config]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^ALERT RULE\s+WHEN\s+CLUSTERS\s+NOTIFY$/m);
    expect(result.stdout).toMatch(/^crashed\s+exited\s+every\s+chat$/m);
    expect(result.stdout).toMatch(/^sick\s+unhealthy\s+alpha\s+chat,am,hook$/m);
    expect(result.stdout).toMatch(/^RECEIVER\s+KIND\s+TARGET$/m);
    expect(result.stdout).toMatch(/^chat\s+slack\s+https:\/\/hooks\.slack\.com\/<redacted>$/m);
    expect(result.stdout).toMatch(/^am\s+alertmanager\s+http:\/\/127\.0\.0\.1:9093$/m);
    expect(result.stdout).toMatch(/^hook\s+webhook\s+\$HOOK_URL$/m);
    const json = await cli(["config", "--config", config, "--json"]);
    expect(json.stdout).not.toMatch(/s3cr3t|pa55/);
    expect(JSON.parse(json.stdout).alerts.receivers).toEqual([
      { name: "chat", kind: "slack", target: "https://hooks.slack.com/<redacted>" },
      { name: "am", kind: "alertmanager", target: "http://127.0.0.1:9093" },
      { name: "hook", kind: "webhook", target: "$HOOK_URL" },
    ]);
    expect(result.stdout).not.toMatch(/s3cr3t|pa55/);
  });
});
