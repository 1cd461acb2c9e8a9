import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createOpenApiDocument } from "../../src/server/openapi.ts";
import { API_ROUTES } from "../../src/server/routes.ts";
import { cli, docker, dockerIds, engines } from "./helpers.ts";
import { raw, startServer } from "./server-helpers.ts";

/** What a new user met on a first real use of docklens: each defect, as it was seen. */
const withConfig = (...args: string[]) => cli([...args, "--config", engines.configPath]);
const portB = () => Number(/:(\d+)$/.exec(engines.hostB)![1]);

describe("a tcp:// host is shown as its host and port", () => {
  it("from a config's tcp:// URL: ENDPOINT, detail and the host field name the port once", async () => {
    const dir = await mkdtemp(join(engines.tmp, "tcp-"));
    const config = join(dir, "docklens.json");
    await writeFile(config, JSON.stringify({ clusters: [{ name: "b", host: engines.hostB }] }));
    const list = await cli(["clusters", "--config", config]);
    expect(list.stdout.split("\n")[1]).toMatch(
      new RegExp(`^1\\s+🐳 b\\s+127\\.0\\.0\\.1:${portB()}\\s+up`),
    );
    const body = JSON.parse((await cli(["clusters", "--json", "--config", config])).stdout);
    expect(body.clusters[0]).toMatchObject({ host: "127.0.0.1", port: portB() });
    const detail = await cli(["detail", "cluster", "b", "--config", config]);
    expect(detail.stdout).toMatch(
      new RegExp(`^Endpoint\\s+http://127\\.0\\.0\\.1:${portB()}$`, "m"),
    );
  });

  it("from DOCKER_HOST=tcp://", async () => {
    const body = JSON.parse(
      (await cli(["detail", "cluster", "local", "--json"], { env: { DOCKER_HOST: engines.hostB } }))
        .stdout,
    );
    expect(body.cluster).toMatchObject({ host: "127.0.0.1", port: portB(), protocol: "http" });
  });

  it("a port beside a URL that names another is a config error, never silently one of them", async () => {
    const dir = await mkdtemp(join(engines.tmp, "tcp-"));
    const config = join(dir, "docklens.json");
    await writeFile(
      config,
      JSON.stringify({ clusters: [{ name: "b", host: engines.hostB, port: 2375 }] }),
    );
    const result = await cli(["clusters", "--config", config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `docklens: invalid config ${config}: clusters[0].host: the URL names port ${portB()} but port 2375 is set beside it: keep one\n`,
    );
  });
});

describe("every placement of an option that --help allows", () => {
  it("takes --config and --json before a detail subcommand", async () => {
    const byConfig = await cli([
      "detail",
      "--config",
      engines.configPath,
      "cluster",
      "bravo",
      "--json",
    ]);
    expect(byConfig.code).toBe(0);
    expect(JSON.parse(byConfig.stdout).cluster.name).toBe("bravo");
    const byJson = await cli([
      "detail",
      "--json",
      "container",
      "alpha",
      "web",
      "--config",
      engines.configPath,
    ]);
    expect(JSON.parse(byJson.stdout).Name).toBe("/web");
  });

  it("lets the subcommand's own option win over the parent's", async () => {
    const dir = await mkdtemp(join(engines.tmp, "placement-"));
    const other = join(dir, "other.json");
    await writeFile(other, JSON.stringify({ clusters: [{ name: "other", host: engines.hostA }] }));
    const result = await cli([
      "detail",
      "--config",
      other,
      "cluster",
      "bravo",
      "--config",
      engines.configPath,
      "--json",
    ]);
    expect(JSON.parse(result.stdout).cluster.name).toBe("bravo");
  });

  it("a misspelt detail subcommand is a usage error that names the one meant", async () => {
    const result = await withConfig("detail", "containr", "alpha", "web");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "docklens: unknown command 'containr' for 'detail'\n(Did you mean container?)\n",
    );
  });

  it("an argument too many is a usage error, on every detail subcommand as elsewhere", async () => {
    for (const args of [
      ["detail", "cluster", "alpha", "x"],
      ["detail", "image", "alpha", "local/busybox:1", "x"],
      ["logs", "alpha", "web", "x"],
    ]) {
      const result = await withConfig(...args);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toMatch(/^docklens: too many arguments for '\w+'/);
    }
  });
});

describe("an id prefix that several containers share", () => {
  it("is AMBIGUOUS_NAME (409), naming the candidates, on detail, logs, stats, top and attach", async () => {
    // Containers on B until two ids share their first character (17 make it certain).
    const made: string[] = [];
    try {
      let prefix: string | undefined;
      while (!prefix) {
        made.push(
          await docker(
            engines.adminB,
            "create",
            "--label",
            "docklens-test=ambiguous",
            "local/busybox:1",
            "true",
          ),
        );
        const ids = await dockerIds(engines.adminB, "ps", "-aq", "--no-trunc");
        prefix = [...new Set(ids.map((id) => id[0]!))].find(
          (first) => ids.filter((id) => id.startsWith(first)).length > 1,
        );
      }
      const matching = (await dockerIds(engines.adminB, "ps", "-aq", "--no-trunc")).filter((id) =>
        id.startsWith(prefix),
      );
      for (const command of [["detail", "container"], ["logs"], ["stats"], ["top"], ["attach"]]) {
        const result = await withConfig(...command, "bravo", prefix);
        expect(result.code, command.join(" ")).toBe(1);
        expect(result.stderr).toMatch(
          new RegExp(
            `^docklens: container id prefix "${prefix}" matches ${matching.length} containers of cluster "bravo": `,
          ),
        );
        for (const id of matching.slice(0, 5)) expect(result.stderr).toContain(id.slice(0, 12));
      }
      const json = await withConfig("detail", "container", "bravo", prefix, "--json");
      expect(json.stdout).toBe("");
      const server = await startServer({ log: false });
      try {
        for (const path of [
          `/detail/bravo/container/${prefix}`,
          `/detail/bravo/container/${prefix}/logs`,
        ]) {
          const response = await raw(server.port, path);
          expect(response.status, path).toBe(409);
          expect(response.json.error.code).toBe("AMBIGUOUS_NAME");
        }
      } finally {
        await server.close();
      }
    } finally {
      if (made.length) await docker(engines.adminB, "rm", ...made);
    }
  });
});

describe("detail container shows what docker ps shows", () => {
  it("health, with the last probe's output when it fails", async () => {
    const sick = await withConfig("detail", "container", "alpha", "sick");
    expect(sick.stdout).toMatch(/^State\s+Up .+ \(unhealthy\)$/m);
    expect(sick.stdout).toMatch(
      /^Health\s+unhealthy, \d+ failing probes? in a row\n\s+last probe: exit 1: probe failed$/m,
    );
    const starting = await withConfig("detail", "container", "alpha", "starting");
    expect(starting.stdout).toMatch(/^State\s+Up .+ \(health: starting\)$/m);
    expect(starting.stdout).toMatch(/^Health\s+starting$/m);
  });

  it("a paused container as paused", async () => {
    const frozen = await withConfig("detail", "container", "alpha", "frozen");
    expect(frozen.stdout).toMatch(/^State\s+Up .+ \(Paused\)$/m);
  });

  it("published ports as docker ps prints them", async () => {
    const ports = await docker(
      engines.hostA,
      "ps",
      "--filter",
      "name=^/web$",
      "--format",
      "{{.Ports}}",
    );
    expect(ports).toContain("->8080/tcp");
    const web = await withConfig("detail", "container", "alpha", "web");
    expect(web.stdout).toMatch(new RegExp(`^Ports\\s+${ports.replace(/[.]/g, "\\.")}$`, "m"));
  });

  it("colours unhealthy red and starting yellow in the containers table, as in detail", async () => {
    const table = await cli(["containers", "alpha", "--config", engines.configPath], {
      env: { FORCE_COLOR: "1" },
    });
    const line = (name: string) =>
      table.stdout.split("\n").find((row) => row.endsWith(` ${name}`))!;
    expect(line("sick")).toMatch(/\u001b\[31mUp .+ \(unhealthy\)\u001b\[39m/);
    expect(line("starting")).toMatch(/\u001b\[33mUp .+ \(health: starting\)\u001b\[39m/);
    expect(line("frozen")).toMatch(/\u001b\[33mUp .+ \(Paused\)\u001b\[39m/);
    expect(line("web")).toMatch(/\u001b\[32mUp /);
  });
});

describe("output that is empty prints nothing", () => {
  it("an empty log, an empty stderr of a TTY container, an empty time window", async () => {
    for (const args of [
      ["logs", "alpha", "fresh"],
      ["logs", "bravo", "b-tty", "--stream", "stderr"],
      ["logs", "alpha", "web", "--since", "1000", "--until", "1001"],
    ]) {
      const result = await withConfig(...args);
      // A window reaches into history: where nothing records, that alone is said, on stderr.
      const said = args.includes("--since")
        ? "docklens: no history here: `docklens serve` records it\n"
        : "";
      expect(result, args.join(" ")).toEqual({ code: 0, stdout: "", stderr: said });
    }
  });
});

describe("friction", () => {
  it("CLI errors name the CLI's flags, not the HTTP query parameters", async () => {
    for (const [flags, flag] of [
      [["-n", "x"], "--tail"],
      [["--since", "soon"], "--since"],
      [["--stream", "all"], "--stream"],
    ] as const) {
      const result = await withConfig("logs", "alpha", "web", ...flags);
      expect(result.code).toBe(2);
      expect(result.stderr.startsWith(`docklens: ${flag}: expected`)).toBe(true);
    }
    const top = await withConfig("top", "alpha", "web", "--ps-args", "-ef;reboot");
    expect(top.code).toBe(2);
    expect(top.stderr).toMatch(/^docklens: --ps-args: expected ps options/);
  });

  it("logs --since takes a date alone and a date with hours and minutes, as docker does", async () => {
    const today = new Date();
    const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
    for (const since of [date, `${date}T00:00`]) {
      const result = await withConfig("logs", "alpha", "web", "--since", since, "-n", "2");
      expect(result.code, since).toBe(0);
      expect(result.stdout.split("\n").filter(Boolean)).toHaveLength(2);
    }
  });

  it("attaching to a paused container says it is paused", async () => {
    const result = await withConfig("attach", "alpha", "frozen");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('docklens: container "frozen" of cluster "alpha" is paused\n');
  });

  it("every command's --help has examples", async () => {
    for (const command of [
      ["clusters"],
      ["containers"],
      ["networks"],
      ["volumes"],
      ["detail"],
      ["logs"],
      ["stats"],
      ["top"],
      ["attach"],
      ["serve"],
    ]) {
      const help = await cli([...command, "--help"]);
      expect(help.stdout, command.join(" ")).toMatch(/\nExamples:\n {2}\$ /);
    }
    const serve = await cli(["serve", "--help"]);
    expect(serve.stdout).toMatch(/--json\s+print the address and the request log as JSON lines/);
    // Eleven CLI runs one after another: 8-10 s, and past 30 s on a loaded CI machine.
  }, 90_000);

  it("the top-level help's examples line up in one column", async () => {
    const help = (await cli(["--help"])).stdout;
    const described = help
      .split("Examples:\n")[1]!
      .split("\n\n")[0]!
      .split("\n")
      .filter((line) => /\S {3,}\S/.test(line));
    expect(described.length).toBeGreaterThan(4);
    expect(new Set(described.map((line) => /^(.*?\S) {3,}\S/.exec(line)![0].length)).size).toBe(1);
  });
});

describe("user text explains itself", () => {
  it("no help text, OpenAPI text, example or config message cites the decision labels it was built from", async () => {
    const texts = [(await cli(["--help"])).stdout];
    for (const command of [["detail"], ["logs"], ["serve"], ["containers"]])
      texts.push((await cli([...command, "--help"])).stdout);
    texts.push(JSON.stringify(createOpenApiDocument(API_ROUTES, { token: true })));
    const dir = await mkdtemp(join(engines.tmp, "labels-"));
    await writeFile(
      join(dir, "docklens.json"),
      JSON.stringify({ clusters: [{ name: "12", host: "h" }] }),
    );
    texts.push((await cli(["clusters", "--config", join(dir, "docklens.json")])).stderr);
    const examples = join(import.meta.dirname, "../../examples");
    const files = await readdir(examples, { recursive: true, withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile()))
      texts.push(await readFile(join(file.parentPath, file.name), "utf8"));
    for (const text of texts) expect(text).not.toMatch(/\bD\d{1,2}\b|spec rule/);
  });
});
