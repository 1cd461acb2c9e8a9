import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";
import { startHook, type Hook } from "./alert-receivers.ts";
import { docker, engines, spawnServe, withContainer, writeConfig } from "./helpers.ts";

/**
 * Alert rules over a node's clusters (docs/guide/nodes.md): a hub serve whose rules name `edge.*`
 * starts before its node `edge` (a serve over engine A as `alpha`) is up, so that the node's
 * clusters appear while the rules run, and the entry that stood for the node leaves.
 */
const LABEL = "docklens-test=alert-nodes";
const TOKEN = "node-hub-token-0123456789";
const ENV = {
  PATH: process.env.PATH ?? "",
  HOME: engines.tmp,
  NODE_HUB: TOKEN,
  EDGE_TOKEN: TOKEN,
  // What this file's hub remembers of its nodes, apart from other files' (edge is theirs too).
  DOCKLENS_DATA_DIR: join(engines.tmp, "data-alert-nodes"),
};

let hook: Hook;
const children: ChildProcess[] = [];

/** `docklens serve` with `config` on `port` (any when 0): its URL once it printed it. */
async function serve(config: string, port = 0): Promise<string> {
  const { child, line, stderr } = await spawnServe(["--port", String(port), "--json", "--quiet"], {
    config,
    env: ENV,
  });
  children.push(child);
  if (!line) throw new Error(`serve did not start: ${stderr()}`);
  return (JSON.parse(line.split("\n")[0]!) as { url: string }).url;
}

beforeAll(async () => {
  hook = await startHook();
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  await hook?.close();
  await rm(ENV.DOCKLENS_DATA_DIR, { recursive: true, force: true });
  for (const host of [engines.hostA, engines.hostB]) {
    const ids = await docker(host, "ps", "-aq", "--filter", `label=${LABEL}`);
    if (ids) await docker(host, "rm", "-f", ...ids.split("\n"));
  }
});

/** `docker run` arguments of a labelled container that exits with `code` after `wait` s. */
const crashing = (name: string, code: number, wait = 0) => [
  ...["--name", name, "-l", LABEL, "local/busybox:1"],
  ...["sh", "-c", `sleep ${wait}; exit ${code}`],
];

const of = (rule: string, state = "firing") =>
  hook.alerts().filter((alert) => alert.rule === rule && alert.state === state);

describe("alert rules over nodes", () => {
  it("follow a node's clusters that appear after serve started, and let go of those that leave", async () => {
    // Exited non-zero before the hub starts: a rule that looked at home would fire on its first list.
    await docker(engines.hostB, "run", ...crashing("al-home-crash", 4)).catch(() => "");
    const nodePort = await freePort();
    const hub = await serve(
      await writeConfig("alert-nodes-hub.json", {
        clusters: [{ name: "home", host: engines.hostB }],
        nodes: [
          { name: "edge", url: `http://127.0.0.1:${nodePort}`, token: { env: "EDGE_TOKEN" } },
        ],
        alerts: {
          receivers: [{ name: "hook", webhook: hook.url }],
          rules: [
            {
              name: "edge-crashed",
              when: "exited",
              cluster: "edge.*",
              filter: [`label=${LABEL}`],
              groupInterval: "0s",
            },
            { name: "down", when: "engine-down", groupInterval: "0s" },
          ],
        },
      }),
    );
    // The node not reached yet is one cluster named after it: its engine is down.
    const down = await until(() => of("down").find((alert) => alert.cluster?.name === "edge"));
    expect(down).toMatchObject({ cluster: { name: "edge" }, container: null });

    await serve(
      await writeConfig("alert-nodes-node.json", {
        clusters: [{ name: "alpha", host: engines.hostA }],
        tokens: [{ name: "hub", env: "NODE_HUB", clusters: ["*"] }],
      }),
      nodePort,
    );
    const joined = await until(async () => {
      const body = (await (await fetch(`${hub}/list/cluster`)).json()) as {
        clusters: Array<{ name: string }>;
      };
      return body.clusters.some((cluster) => cluster.name === "edge.alpha");
    }, 60_000);
    expect(joined).toBe(true);
    // The entry that stood for the node left the fleet: its alert has ended.
    const left = await until(() => of("down", "resolved").find((alert) => alert.id === down.id));
    expect(left).toMatchObject({ cluster: { name: "edge" }, state: "resolved" });

    await withContainer(engines.hostA, crashing("al-edge-crash", 3, 1), async () => {
      const crashed = await until(
        () => of("edge-crashed").find((alert) => alert.container?.name === "al-edge-crash"),
        60_000,
      );
      expect(crashed).toMatchObject({
        cluster: { name: "edge.alpha" },
        cause: "exited with code 3",
        link: expect.stringMatching(
          /\/#\/cluster\/edge\.alpha\/container\/[0-9a-f]{64}\?name=al-edge-crash$/,
        ),
      });
      const { alerts } = (await (await fetch(`${hub}/alerts`)).json()) as { alerts: any[] };
      expect(alerts).toContainEqual(expect.objectContaining({ id: crashed.id, state: "firing" }));
    });
    // home is not edge.*: its container that exited before is no alert of the rule.
    expect(of("edge-crashed").map((alert) => alert.cluster.name)).toEqual(["edge.alpha"]);
    expect(of("down").filter((alert) => alert.cluster?.name !== "edge")).toEqual([]);
  }, 120_000);
});
