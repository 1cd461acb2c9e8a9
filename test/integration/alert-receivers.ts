// The receivers the alert tests deliver to, on loopback, started and stopped by the tests:
// Debian's Prometheus Alertmanager, and a webhook receiver of node's http.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";

/** A local webhook receiver: the JSON bodies it was POSTed, in order. */
export interface Hook {
  url: string;
  port: number;
  bodies: any[];
  /** Every alert of every body, in order. */
  alerts(): any[];
  /** Listen (again) on its port. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on a loopback port; `listening: false` keeps its port closed until `open`. */
export async function startHook(listening = true): Promise<Hook> {
  const port = await freePort();
  const bodies: any[] = [];
  let server: Server | undefined;
  const hook: Hook = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    bodies,
    alerts: () => bodies.flatMap((body) => body.alerts ?? []),
    async open() {
      server = createServer((req, res) => {
        let text = "";
        req.on("data", (chunk) => (text += chunk));
        req.on("end", () => {
          bodies.push(
            req.headers["content-type"]?.startsWith("application/json")
              ? JSON.parse(text)
              : { text },
          );
          res.end("ok");
        });
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    async close() {
      if (!server) return;
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    },
  };
  if (listening) await hook.open();
  return hook;
}

/** Debian's prometheus-alertmanager on a loopback port, gossip off, with a temp dir of its own. */
export interface Alertmanager {
  url: string;
  /** The alerts its v2 API holds now. */
  alerts(): Promise<any[]>;
  stop(): Promise<void>;
}

export async function startAlertmanager(): Promise<Alertmanager> {
  const dir = await mkdtemp(join(tmpdir(), "alertmanager-"));
  const config = join(dir, "alertmanager.yml");
  await writeFile(config, "route:\n  receiver: none\nreceivers:\n  - name: none\n");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    "prometheus-alertmanager",
    [
      `--config.file=${config}`,
      `--storage.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--cluster.listen-address=",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const ready = await until(async () => {
    if (child.exitCode !== null) return "exited";
    return fetch(`${url}/-/ready`).then(
      (response) => (response.ok ? "ready" : ""),
      () => "",
    );
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    await rm(dir, { recursive: true, force: true });
  };
  if (ready !== "ready") {
    await stop();
    throw new Error(`prometheus-alertmanager did not start: ${stderr.slice(-500)}`);
  }
  return {
    url,
    alerts: async () => (await fetch(`${url}/api/v2/alerts`)).json() as Promise<any[]>,
    stop,
  };
}
