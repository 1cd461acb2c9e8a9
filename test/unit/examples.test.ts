import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config/config.ts";
import { certificates } from "../support/certificates.ts";
import { docsPages } from "../support/docs-pages.ts";

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

  it("the compose file and the Kubernetes manifests parse, run the image, and name only options serve has", async () => {
    const options = await serveOptions();
    const [compose] = await yamlDocuments("compose.yaml");
    const service = compose!.services.docklens;
    // The image is built once from the repository: nothing is downloaded at start.
    expect(service).toMatchObject({ build: "../..", image: "docklens:0.1.0" });
    expect(service.command[0]).toBe("serve");
    for (const flag of flagsOf(service.command)) expect(options, flag).toContain(flag);
    const [deployment, k8sService] = await yamlDocuments("kubernetes.yaml");
    const pod = deployment!.spec.template;
    expect(deployment!.kind).toBe("Deployment");
    expect(pod.spec.containers[0].image).toMatch(/\/docklens:0\.1\.0$/);
    expect(pod.spec.containers[0].command).toBeUndefined();
    expect(pod.spec.containers[0].args[0]).toBe("serve");
    for (const flag of flagsOf(pod.spec.containers[0].args)) expect(options, flag).toContain(flag);
    expect(k8sService).toMatchObject({
      kind: "Service",
      metadata: { labels: { app: "docklens" } },
      spec: { selector: { app: "docklens" } },
    });
    for (const text of [compose, deployment].map((doc) => JSON.stringify(doc)))
      expect(text).not.toMatch(/npx|node:\d/);
  });

  it("Prometheus scrapes the Kubernetes Service with the token /metrics wants", async () => {
    const [deployment] = await yamlDocuments("kubernetes.yaml");
    // An annotation makes Prometheus scrape without a token, to a 401.
    expect(JSON.stringify(deployment)).not.toContain("prometheus.io/scrape");
    const tokenRef = deployment!.spec.template.spec.containers[0].env.find(
      (each: { name: string }) => each.name === "DOCKLENS_TOKEN",
    ).valueFrom.secretKeyRef;
    const [monitor] = await yamlDocuments("servicemonitor.yaml");
    expect(monitor).toMatchObject({
      kind: "ServiceMonitor",
      spec: {
        selector: { matchLabels: { app: "docklens" } },
        endpoints: [
          {
            port: "http",
            path: "/metrics",
            authorization: { type: "Bearer", credentials: tokenRef },
          },
        ],
      },
    });
  });

  it("the image's Dockerfile builds in two stages, copies only what exists, and runs serve unprivileged", async () => {
    const root = join(examples, "..");
    const lines = (await readFile(join(root, "Dockerfile"), "utf8"))
      .replace(/\\\n/g, " ")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    const from = lines.filter((line) => line.startsWith("FROM "));
    expect(from).toEqual(["FROM node:22-slim AS build", "FROM node:22-slim"]);
    // What it copies from the repository is there, and what it leaves out is ignored.
    for (const line of lines.filter((each) => /^COPY (?!--from)/.test(each)))
      for (const source of line.split(/\s+/).slice(1, -1))
        await expect(stat(join(root, source)), source).resolves.toBeDefined();
    const ignored = (await readFile(join(root, ".dockerignore"), "utf8")).split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "dist", ".git"]));
    expect(lines).toEqual(
      expect.arrayContaining([
        "RUN npm ci --no-audit --no-fund",
        expect.stringMatching(/^RUN npm install --global --omit=dev .*docklens\.tgz/),
        "USER node",
        'ENTRYPOINT ["docklens"]',
      ]),
    );
    // The default command is serve, with options it has.
    const cmd = JSON.parse(lines.find((line) => line.startsWith("CMD "))!.slice(4)) as string[];
    expect(cmd[0]).toBe("serve");
    const options = await serveOptions();
    for (const flag of flagsOf(cmd)) expect(options, flag).toContain(flag);
  });
});

describe("the command lines of the README and the docs", () => {
  it("name commands docklens has, with options each has", async () => {
    const { createProgram } = await import("../../src/cli/main.ts");
    const program = createProgram();
    // The generated reference prints the program's own help: no test of the program.
    const docs = (await docsPages())
      .filter((page) => !page.text.startsWith("<!-- Made by"))
      .map((page) => page.text)
      .join("\n");
    const lines = [...docs.matchAll(/^ *```\w*\n([\s\S]*?)^ *```/gm)]
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
