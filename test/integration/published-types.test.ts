import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");
const NPM_ENV = { ...process.env, npm_config_update_notifier: "false" };

/** A consumer's use of docklens: it must type-check as is, and each `@ts-expect-error` must hold. */
const CONSUMER = `import {
  DocklensError,
  inspectContainer,
  inspectImage,
  isDocklensError,
  listContainers,
  listNetworks,
  listVolumes,
  loadFleet,
  type ContainerItem,
  type DockerInfo,
  type DocklensConfigInput,
  type Fleet,
  type InspectContainerResult,
} from "docklens";
import { createApp, type CreateAppOptions } from "docklens/server";

const fleet = await loadFleet({ configPath: "docklens.json" });
const { containers, running } = await listContainers("1", { fleet });
const item: ContainerItem | undefined = containers[0];
if (item) {
  const name: string | undefined = item.Names[0];
  const created: string = item.Created;
  const port: number | undefined = item.Ports[0]?.PublicPort;
  const network: string | undefined = item.NetworkSettings.Networks.bridge?.IPAddress;
  // @ts-expect-error Names is a string array, not any
  const wrong: number = item.Names;
  // @ts-expect-error Created is an ISO string, not the engine's Unix seconds
  const seconds: number = item.Created;
  console.log(name, created, port, network, wrong, seconds, running.length);
}

const detail: InspectContainerResult = await inspectContainer({ cluster: "1", name: "web" }, { fleet });
const env: string[] = detail.Config.Env ?? [];
const health: string | undefined = detail.State.Health?.Status;
// @ts-expect-error Running is a boolean
const runningText: string = detail.State.Running;

const image = await inspectImage({ cluster: "1", name: "local/busybox:1" }, { fleet });
const { networks } = await listNetworks("1", { fleet });
const { Volumes } = await listVolumes("1", { fleet });
const subnets = networks.flatMap((network) => network.IPAM.Config ?? []).map((range) => range.Subnet);
const info: DockerInfo = { ServerVersion: "27.0.0", Volumes: Volumes.length };

const config: DocklensConfigInput = {
  clusters: [{ name: "local", host: "unix:///var/run/docker.sock", timeoutMs: 2000 }],
  defaults: { maxConcurrency: 4 },
  tokens: [{ name: "ci", env: "CI_TOKEN", clusters: ["*"] }],
};
// @ts-expect-error an unknown key
const typo: DocklensConfigInput = { clusters: [], showSecret: true };

try {
  throw new DocklensError("CLUSTER_NOT_FOUND", "no such cluster");
} catch (error) {
  if (isDocklensError(error)) console.log(error.code, error.status, error.toJSON().message);
}

// @ts-expect-error the engine clients are docklens's own business
void fleet.engine;
// @ts-expect-error a fleet is made by loadFleet or createFleet, never by hand
const handmade: Fleet = { config: fleet.config, slot: fleet.slot, close() {} };

const options: CreateAppOptions = { fleet, token: "secret", log: false };
const app = createApp(options);
console.log(env, health, runningText, image.RepoTags, subnets, info, config, typo, app, handmade);
fleet.close();
`;

/**
 * h3 1.x declares `H3Event implements Pick<FetchEvent, "respondWith">`, and `FetchEvent` is only
 * in TypeScript's WebWorker lib: with `skipLibCheck: false`, any project that reads h3's types
 * needs it declared. It is h3's, not docklens's: docklens/server only names h3's `App`.
 */
const FETCH_EVENT = `interface FetchEvent {
  respondWith(response: Response | PromiseLike<Response>): void;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    types: ["node"],
    noEmit: true,
  },
};

/**
 * The declarations a user of the npm package gets, checked the way a strict project checks
 * them: its own TypeScript project, the tarball installed in it, and `skipLibCheck` off, so
 * that a declaration naming a package the consumer does not have (dockerode's types, say) fails,
 * and a type that turned into `any` fails a `@ts-expect-error`. Uses dist/ as built.
 */
describe("the published types", () => {
  let dir: string | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "docklens-types-"));
    await exec("npm", ["pack", "--pack-destination", dir, "--ignore-scripts"], {
      cwd: ROOT,
      env: NPM_ENV,
    });
    const tarball = (await readdir(dir)).find((file) => file.endsWith(".tgz"))!;
    await Promise.all([
      writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "consumer", private: true, type: "module" }),
      ),
      writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2)),
      writeFile(join(dir, "index.ts"), CONSUMER),
      writeFile(join(dir, "h3-fetch-event.d.ts"), FETCH_EVENT),
    ]);
    // TypeScript and Node's types are the project's own, linked by path; docklens's dependencies
    // come from npm's cache when it has them.
    await exec(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--prefer-offline",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        `./${tarball}`,
        join(ROOT, "node_modules/typescript"),
        join(ROOT, "node_modules/@types/node"),
      ],
      { cwd: dir, env: NPM_ENV },
    );
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("type-check in a strict consumer project with skipLibCheck off", async () => {
    const tsc = join(dir!, "node_modules/typescript/bin/tsc");
    const result = await exec(process.execPath, [tsc, "-p", "."], { cwd: dir }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: Error & { code?: number; stdout?: string }) => ({
        code: error.code,
        stdout: error.stdout || error.message,
      }),
    );
    expect(result).toEqual({ code: 0, stdout: "" });
    // tsc over the published types: 18 s on a quiet machine, 35 s on a loaded one.
  }, 120_000);
});
