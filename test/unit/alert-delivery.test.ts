import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Alert, AlertNotice } from "../../src/core/alerts/alert-book.ts";
import { createDelivery, type Delivery } from "../../src/core/alerts/delivery.ts";
import { onceEvery } from "../../src/core/alerts/once-every.ts";
import { receiverRequest } from "../../src/core/alerts/receivers.ts";
import { until } from "../support/until.ts";

/** Grouped, bounded delivery (issue 28 item 2), to a receiver on a loopback port. */
let server: Server | undefined;
let delivery: Delivery | undefined;
afterEach(async () => {
  delivery?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = delivery = undefined;
});

/** A webhook receiver: each request's alerts; `status` answers them. */
async function receiver(status = () => 200) {
  const bodies: Alert[][] = [];
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const code = status();
      if (code === 200) bodies.push((JSON.parse(text) as { alerts: Alert[] }).alerts);
      res.statusCode = code;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const hook = {
    name: "hook",
    kind: "webhook" as const,
    target: "",
    url: `http://127.0.0.1:${port}/`,
  };
  return { hook, bodies };
}

const notice = (
  rule: string,
  container: string,
  state: Alert["state"] = "firing",
): AlertNotice => ({
  alert: {
    id: `${rule}-${container}`,
    rule,
    when: "exited",
    state,
    cluster: { id: 1, name: "alpha" },
    container: { id: container, name: container },
    cause: "exited with code 3",
    startsAt: "2026-11-27T02:00:00.000Z",
    link: "/#/",
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("alert delivery", () => {
  it("sends a burst of 1,000 alerts of a rule as one request, and what follows once per group interval", async () => {
    const { hook, bodies } = await receiver();
    delivery = createDelivery([hook], { groupWaitMs: 20, groupIntervalMs: 1500 });
    for (let i = 0; i < 1000; i++) delivery.send(["hook"], [notice("crashed", `c${i}`)]);
    await until(() => bodies.length === 1, 5000);
    expect(bodies.map((body) => body.length)).toEqual([1000]);
    // Within the interval: gathered, each alert in its latest state.
    delivery.send(["hook"], [notice("crashed", "c1", "resolved")]);
    delivery.send(["hook"], [notice("crashed", "c2")]);
    delivery.send(["hook"], [notice("crashed", "c2", "resolved")]);
    await sleep(150);
    expect(bodies).toHaveLength(1);
    await until(() => bodies.length === 2, 5000);
    expect(bodies[1]!.map((alert) => `${alert.container!.name} ${alert.state}`)).toEqual([
      "c1 resolved",
      "c2 resolved",
    ]);
    // Counted once the receiver's answer is back.
    await until(() => delivery!.counts()[0]?.count === 2, 5000);
    expect(delivery.counts()).toEqual([{ receiver: "hook", result: "success", count: 2 }]);
  });

  it("groups by rule: two rules are two requests", async () => {
    const { hook, bodies } = await receiver();
    delivery = createDelivery([hook], { groupWaitMs: 20, groupIntervalMs: 10_000 });
    delivery.send(["hook"], [notice("crashed", "a"), notice("sick", "a"), notice("crashed", "b")]);
    await until(() => bodies.length === 2, 5000);
    expect(bodies.map((body) => body.map((alert) => alert.id)).sort()).toEqual([
      ["crashed-a", "crashed-b"],
      ["sick-a"],
    ]);
  });

  it("counts and logs what a full queue drops, once per interval, and sends the rest when the receiver is back", async () => {
    let up = false;
    const { hook, bodies } = await receiver(() => (up ? 200 : 503));
    const logged: Array<[string, number]> = [];
    delivery = createDelivery([hook], {
      groupWaitMs: 10,
      groupIntervalMs: 0,
      backoffMs: [50, 100],
      maxQueued: 100,
      onDropped: (name, count) => logged.push([name, count]),
    });
    for (let i = 0; i < 150; i++) delivery.send(["hook"], [notice("crashed", `c${i}`)]);
    for (let i = 0; i < 20; i++) delivery.send(["hook"], [notice("sick", `c${i}`)]);
    expect(delivery.dropped()).toEqual([{ receiver: "hook", count: 70 }]);
    // The first drop at once; the rest of the minute's at its end.
    expect(logged).toEqual([["hook", 1]]);
    await until(() => delivery!.counts().some((one) => one.result === "failure"), 5000);
    up = true;
    await until(() => bodies.flat().length === 100, 5000);
    const sent = bodies.flat().map((alert) => alert.id);
    expect(sent).toHaveLength(100);
    expect(sent).not.toContain("crashed-c0");
    expect(sent).toContain("sick-c19");
  });
});

describe("a chat message of a group", () => {
  it.each([
    [1, 1],
    [20, 20],
    [25, 21],
  ])("of %i alerts has %i lines, the last saying how many more", (count, lines) => {
    const notices = Array.from({ length: count }, (_, i) => notice("crashed", `c${i}`));
    const slack = { name: "chat", kind: "slack" as const, target: "", url: "http://127.0.0.1:9/" };
    const { text } = JSON.parse(receiverRequest(slack, notices).body) as { text: string };
    expect(text.split("\n")).toHaveLength(lines);
    if (count > 20) expect(text.split("\n").at(-1)).toBe(`… and ${count - 20} more (GET /alerts)`);
  });
});

describe("a tally told once per interval", () => {
  it("tells the first at once and the rest at the end of the interval", async () => {
    const told: number[] = [];
    const tally = onceEvery(100, (n) => told.push(n));
    tally.add();
    tally.add(2);
    tally.add();
    expect(told).toEqual([1]);
    await sleep(150);
    expect(told).toEqual([1, 3]);
    await sleep(150);
    expect(told).toEqual([1, 3]);
    tally.add(5);
    expect(told).toEqual([1, 3, 5]);
    tally.close();
  });
});
