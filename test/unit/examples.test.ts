import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config/config.ts";
import { certificates } from "../support/certificates.ts";

const examples = join(import.meta.dirname, "../../examples");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docklens-examples-"));
  await certificates(dir, "ca", ["cert"]);
  await writeFile(
    join(dir, "id_ed25519"),
    "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the example configs", () => {
  it("docklens.config.yaml is valid and means what its comments say", async () => {
    // Its TLS and SSH files are checked when it loads: put real ones where it names them.
    const text = (await readFile(join(examples, "docklens.config.yaml"), "utf8"))
      .replaceAll("/etc/docklens/prod/", `${dir}/`)
      .replace("/home/ops/.ssh/id_ed25519", join(dir, "id_ed25519"));
    await cp(join(dir, "cert.key"), join(dir, "key.pem"));
    await writeFile(join(dir, "docklens.config.yaml"), text);
    const config = await loadConfig({ configPath: join(dir, "docklens.config.yaml") });
    expect(config.clusters.map((c) => [c.id, c.name, c.protocol, c.port, c.timeoutMs])).toEqual([
      [1, "local", "unix", 0, 5000],
      [10, "build", "http", 2375, 2000],
      [3, "prod", "https", 2376, 5000],
      [4, "edge", "ssh", 22, 5000],
    ]);
  });

  it(".docklensrc.json is valid", async () => {
    const config = await loadConfig({ configPath: join(examples, ".docklensrc.json") });
    expect(config.clusters.map((c) => c.name)).toEqual(["local", "lab"]);
  });
});

describe("the deployment examples", () => {
  /** The options `docklens serve` takes, from the program itself. */
  const serveOptions = async () => {
    const { createProgram } = await import("../../src/cli/main.ts");
    const serve = createProgram().commands.find((command) => command.name() === "serve")!;
    return new Set(
      serve.options.flatMap((option) => [option.long, option.short].filter(Boolean) as string[]),
    );
  };
  /** The arguments after `serve` of a docklens command line, and each flag among them. */
  const flagsOf = (argv: string[]) =>
    argv.slice(argv.indexOf("serve") + 1).filter((arg) => arg.startsWith("-"));
  const yamlDocuments = async (file: string) => {
    const { defaultLoaders } = await import("cosmiconfig");
    const text = await readFile(join(examples, "deploy", file), "utf8");
    return Promise.all(
      text
        .split(/^---$/m)
        .map((doc) => defaultLoaders[".yaml"](file, doc) as Promise<Record<string, any>>),
    );
  };

  it("the systemd unit is hardened and names only options serve has", async () => {
    const unit = await readFile(join(examples, "deploy", "docklens.service"), "utf8");
    const keys = Object.fromEntries(
      unit
        .split("\n")
        .filter((line) => /^\w+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(keys).toMatchObject({
      DynamicUser: "yes",
      SupplementaryGroups: "docker",
      ProtectSystem: "strict",
      NoNewPrivileges: "yes",
      ReadOnlyPaths: "/etc/docklens",
    });
    const options = await serveOptions();
    for (const flag of flagsOf(keys.ExecStart!.split(/\s+/))) expect(options, flag).toContain(flag);
  });

  it("the compose file and the Kubernetes manifests parse and name only options serve has", async () => {
    const options = await serveOptions();
    const [compose] = await yamlDocuments("compose.yaml");
    for (const flag of flagsOf(compose!.services.docklens.command))
      expect(options, flag).toContain(flag);
    const [deployment, service] = await yamlDocuments("kubernetes.yaml");
    expect(deployment).toMatchObject({
      kind: "Deployment",
      spec: {
        template: {
          metadata: {
            annotations: { "prometheus.io/scrape": "true", "prometheus.io/path": "/metrics" },
          },
        },
      },
    });
    expect(service).toMatchObject({ kind: "Service", spec: { selector: { app: "docklens" } } });
    for (const flag of flagsOf(deployment!.spec.template.spec.containers[0].command))
      expect(options, flag).toContain(flag);
  });
});

describe("README's command lines", () => {
  it("name commands docklens has, with options each has", async () => {
    const { createProgram } = await import("../../src/cli/main.ts");
    const program = createProgram();
    const readme = await readFile(join(import.meta.dirname, "../../README.md"), "utf8");
    const lines = [...readme.matchAll(/^ *```\w*\n([\s\S]*?)^ *```/gm)]
      .flatMap((block) => block[1]!.split("\n"))
      .map((line) => line.trim().replace(/^\$ /, ""))
      .filter((line) => line.startsWith("docklens "))
      // The command alone: not what a pipe or a comment adds, nor the description beside it.
      .map((line) => line.split(/ \| | #|\s{2,}/)[0]!);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      const words = line.replace(/[[\]]/g, " ").split(/\s+/).slice(1);
      let command = program.commands.find((sub) => sub.name() === words[0]);
      expect(command, line).toBeDefined();
      const sub = command!.commands.find((each) => each.name() === words[1]?.split("|")[0]);
      if (sub) command = sub;
      const options = new Set(
        command!.options.flatMap((option) => [option.long, option.short].filter(Boolean)),
      );
      for (const word of words.filter((each) => /^-/.test(each)))
        expect(options, `${line}: ${word}`).toContain(word.split("=")[0]);
    }
  });
});
