// `docklens tui` (issue 48) in a real pseudo-terminal, its screen read through a terminal
// emulator, against the suite's engines: two Docker engines, Podman, and a hung one.
import { readFile } from "node:fs/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cli, docker, engines, withContainer, writeConfig } from "./helpers.ts";
import { startTui, type TuiScreen } from "./tui-screen.ts";

let config: string;
const screens: TuiScreen[] = [];
const open = (args: string[], size?: { columns?: number; rows?: number; env?: object }) => {
  const screen = startTui(["--config", config, ...args], size);
  screens.push(screen);
  return screen;
};
const unique = () => `tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const names = async (host: string) =>
  (await docker(host, "ps", "-a", "--format", "{{.Names}}")).split("\n").filter(Boolean);
/** The table's rows on the screen: its lines after the header, up to the first empty one. */
const rowsOf = (screen: string) => {
  const lines = screen.split("\n");
  const header = lines.findIndex((line) => line.startsWith("CLUSTER"));
  const end = lines.findIndex((line, i) => i > header && line === "");
  return lines.slice(header + 1, end);
};

beforeAll(async () => {
  const read = async (path: string) =>
    (JSON.parse(await readFile(path, "utf8")) as { clusters: Array<{ name: string }> }).clusters;
  const clusters = [...(await read(engines.configPath)), ...(await read(engines.podmanConfigPath))];
  config = await writeConfig("tui.json", {
    clusters: clusters.filter((cluster) => cluster.name !== "dead"),
  });
});

afterEach(() => {
  for (const screen of screens.splice(0)) screen.kill();
});

describe("docklens tui", () => {
  it("lists the containers of both Docker engines and Podman; a hung engine is shown as such while the rest is usable", async () => {
    const screen = open([], { columns: 200, rows: 120 });
    const alpha = await names(engines.hostA);
    const bravo = await names(engines.hostB);
    const pod = await names(engines.hostP);
    // The hung engine does not hold the others: their rows come while it is waiting.
    const first = await screen.waitFor(
      (text) => text.includes(alpha[0]!) && /hang waiting|hang down/.test(text),
    );
    expect(first).toMatch(/alpha ●/);
    const all = await screen.waitFor((text) =>
      [...alpha, ...bravo, ...pod].every((name) => text.includes(name)),
    );
    const rows = rowsOf(all);
    expect(rows).toHaveLength(alpha.length + bravo.length + pod.length);
    for (const name of alpha)
      expect(rows.find((row) => row.includes(` ${name} `))).toMatch(/^alpha /);
    for (const name of pod) expect(rows.find((row) => row.includes(` ${name} `))).toMatch(/^pod /);
    // The hung one goes down (its timeoutMs) with its error, and the keys still work.
    await screen.waitFor((text) => /hang down \(.+\)/.test(text));
    screen.press("?");
    await screen.waitFor("Nothing here acts");
    screen.press("\x1b");
    await screen.waitFor(alpha[0]!);
  });

  it("shows a container started elsewhere, and its stop, without a key", async () => {
    const screen = open(["alpha"]);
    await screen.waitFor("alpha ●");
    const name = unique();
    await withContainer(
      engines.hostA,
      ["--name", name, "local/busybox:1", "sleep", "600"],
      async () => {
        const row = (text: string) => text.split("\n").find((line) => line.includes(name)) ?? "";
        expect(row(await screen.waitFor((text) => /running/.test(row(text))))).toMatch(/Up /);
        await docker(engines.hostA, "stop", "-t", "0", name);
        expect(row(await screen.waitFor((text) => /exited/.test(row(text))))).toMatch(/Exited \(/);
      },
    );
    await screen.waitFor((text) => !text.includes(name));
  });

  it("sorts by a column both ways and filters by words and docker's filters", async () => {
    const screen = open(["alpha", "bravo"], { columns: 160, rows: 80 });
    const bravo = await names(engines.hostB);
    const alpha = await names(engines.hostA);
    await screen.waitFor((text) => [...alpha, ...bravo].every((name) => text.includes(name)));
    screen.press("l"); // The sort column: NAME.
    const byName = await screen.waitFor("NAME↑");
    const nameOf = (row: string) => row.split(/\s+/)[1]!;
    const sorted = rowsOf(byName).map(nameOf);
    expect(sorted).toEqual([...sorted].sort());
    screen.press("s");
    const reversed = rowsOf(await screen.waitFor("NAME↓")).map(nameOf);
    expect(reversed).toEqual([...sorted].reverse());
    screen.press("/");
    await screen.waitFor("▏");
    screen.press("cluster=bravo status=running");
    const running = (await docker(engines.hostB, "ps", "--format", "{{.Names}}")).split("\n");
    const filtered = await screen.waitFor(`${running.length} of ${alpha.length + bravo.length}`);
    expect(rowsOf(filtered).map(nameOf).sort()).toEqual(running.sort());
    screen.press("\x1b");
    await screen.waitFor(`${alpha.length + bravo.length} containers`);
  });

  it("follows a container's logs and greps them with RE2", async () => {
    const name = unique();
    const script = "i=0; while true; do i=$((i+1)); echo line-$i; echo odd-$i >&2; sleep 0.2; done";
    await withContainer(
      engines.hostA,
      ["--name", name, "local/busybox:1", "sh", "-c", script],
      async () => {
        const screen = open(["alpha"]);
        await screen.waitFor(name);
        screen.press("/");
        await screen.waitFor("▏");
        screen.press(name);
        await screen.waitFor("1 of");
        screen.press("\r");
        await screen.waitFor((text) => !text.includes("▏"));
        screen.press("\r");
        await screen.waitFor(`logs of ${name} on alpha`);
        // Followed: a line written after the pane opened comes without a key.
        const seen = Number(/line-(\d+)/.exec(await screen.waitFor("line-"))![1]);
        await screen.waitFor(`line-${seen + 5}`);
        screen.press("/");
        await screen.waitFor("grep: ");
        screen.press("^odd-\\d*5$");
        screen.press("\r");
        const grepped = await screen.waitFor(
          (text) => text.includes("grep ^odd") && /odd-\d*5\b/.test(text),
        );
        const shown = grepped.split("\n").filter((line) => /^(line|odd)-/.test(line));
        expect(shown.length).toBeGreaterThan(0);
        for (const line of shown) expect(line).toMatch(/^odd-\d*5$/);
        screen.press("\x1b");
        await screen.waitFor("1 of");
      },
    );
  });

  it("escapes a hostile label, keeps wide characters aligned, redraws on resize and restores the terminal on q", async () => {
    const name = unique();
    const project = "日本\x1b]0;pwned\x07\x1b[31mred";
    const args = ["--name", name, "--label", `com.docker.compose.project=${project}`];
    await withContainer(engines.hostA, [...args, "local/busybox:1", "sleep", "600"], async () => {
      const screen = open(["alpha"], { columns: 160, rows: 30 });
      const text = await screen.waitFor(name);
      const row = text.split("\n").find((line) => line.includes(name))!;
      // The project's cell (10 cells: the two wide characters, then the escape, cut).
      expect(row).toContain("日本\\u001…");
      expect(screen.written()).not.toContain("\x1b]0;pwned");
      // Wide characters count two cells: the column after the project starts where the header's does.
      const header = text.split("\n").find((line) => line.startsWith("CLUSTER"))!;
      const cells = (line: string) => [...line].reduce((n, c) => n + (/[日本]/.test(c) ? 2 : 1), 0);
      const before = (line: string, at: string) => cells(line.slice(0, line.indexOf(at)));
      expect(before(row, "2026-")).toBe(before(header, "CREATED"));
      screen.resize(80, 24);
      // Redrawn whole: no line wider than the terminal, the wide columns left out.
      const small = await screen.waitFor(
        (now) =>
          !now.includes("IMAGE") &&
          now.includes(name.slice(0, 10)) &&
          now.split("\n").every((line) => cells(line) <= 80) &&
          // The status line in its place, the one left free under it: the frame is whole.
          /containers · \?: keys/.test(now.split("\n").at(-2)!),
      );
      expect(small.split("\n")[0]).toMatch(/^alpha ●/);
      screen.press("q");
      expect(await screen.exited()).toBe(0);
      expect(screen.modes()).toEqual({ alternate: false, cursorShown: true });
    });
  });

  it("writes no colour under NO_COLOR, quits on Ctrl-C, and says it needs a terminal when it has none", async () => {
    const screen = open(["alpha"], { env: { NO_COLOR: "1" } });
    await screen.waitFor("alpha ●");
    await screen.waitFor("running");
    // SGR colours (30-37, 90-97, 38;5;n): none; bold and inverse are not colours.
    expect(screen.written()).not.toMatch(/\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/);
    screen.press("\x03"); // Ctrl-C quits as q does, the terminal restored.
    expect(await screen.exited()).toBe(0);
    expect(screen.modes()).toEqual({ alternate: false, cursorShown: true });
    const piped = await cli(["tui", "--config", config]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe("docklens: docklens tui needs a terminal (stdin and stdout)\n");
  });
});
