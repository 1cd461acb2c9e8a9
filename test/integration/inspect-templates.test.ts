import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cli, containerForFile, engines, writeConfig } from "./helpers.ts";

const exec = promisify(execFile);

/**
 * `docklens inspect -f` against `docker inspect -f`, byte for byte, on one container of engine A:
 * each action and function of Go's text/template and docker's, on its mounts, labels, networks,
 * environment and nil fields. One mount only: the engine lists mounts in no fixed order.
 */
const NAME = `lens-tpl-${process.pid}`;
containerForFile(engines.hostA, [
  "--name",
  NAME,
  "--network",
  "lens-net",
  "-v",
  "/etc:/host-etc:ro",
  "--tmpfs",
  "/run",
  "-l",
  "tier=front",
  "-l",
  "com.example.team=ops",
  "-l",
  "empty=",
  "-e",
  "MODE=fast",
  "-e",
  "EMPTY=",
  "local/busybox:1",
  "sleep",
  "100000",
]);

/** The config of engine A alone, as a user with one engine has it: names need no cluster. */
const one = () =>
  writeConfig("templates-one.json", { clusters: [{ name: "alpha", host: engines.hostA }] });

/** docker's stdout, or its stderr when it fails. */
async function docker(format: string): Promise<{ stdout: string; stderr: string }> {
  return exec("docker", ["-H", engines.hostA, "inspect", "-f", format, NAME]).catch(
    (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr }),
  );
}

describe("inspect -f runs Go's templates as docker inspect -f does", () => {
  it.each([
    // Fields, Go's printing of values: maps sorted, slices, nil slices, maps and pointers.
    ["{{.State.ExitCode}} {{.State.Running}} {{.Name}} {{.Config.Image}}"],
    ["{{.Config.Labels}}"],
    ["{{.Config.Env}}"],
    ["{{.Config.Cmd}} {{.Config.Entrypoint}} {{.HostConfig.Links}} {{.HostConfig.Tmpfs}}"],
    ["{{.State.Health}} {{.HostConfig.PidsLimit}}"],
    // Actions.
    ["{{range .Mounts}}{{.Source}}{{end}}"],
    ["{{range .Mounts}}{{.Type}} {{.Destination}} {{.RW}} {{.Mode}}{{end}}"],
    ["{{range $k, $v := .Config.Labels}}{{$k}}={{$v}};{{end}}"],
    ["{{range .Config.Env}}{{println .}}{{end}}"],
    ["{{range $i, $e := .Config.Cmd}}{{if $i}},{{end}}{{$e}}{{end}}"],
    ["{{range $name, $n := .NetworkSettings.Networks}}{{$name}}={{$n.IPAddress}} {{end}}"],
    ["{{range .HostConfig.Links}}x{{else}}no links{{end}}"],
    ['{{range .Config.Env}}{{if eq . "MODE=fast"}}{{break}}{{end}}[{{.}}]{{end}}'],
    ["{{if .State.Running}}running{{else}}stopped{{end}}"],
    [
      '{{if eq .State.Status "exited"}}down{{else if eq .State.Status "running"}}up{{else}}?{{end}}',
    ],
    ["{{if .State.Health}}{{.State.Health.Status}}{{else}}no health{{end}}"],
    ["{{with .Config.Entrypoint}}{{.}}{{else}}no entrypoint{{end}}"],
    ['{{with index .NetworkSettings.Networks "lens-net"}}{{.IPAddress}} {{.Aliases}}{{end}}'],
    ["{{$n := .Name}}{{range .Mounts}}{{$n}}:{{.Type}} {{end}}{{$.Id}}"],
    ["{{/* a comment */}}a  {{- .Name -}}  b {{ .Id | len }}"],
    ['{{.Config.Image | printf "%s!" | upper}} {{(index .Mounts 0).Type}}'],
    // Functions.
    ['{{index .Config.Labels "tier"}}|{{index .Config.Labels "nope"}}|'],
    ["{{json .Config.Labels}} {{json .Config.Entrypoint}} {{json .State.Health}}"],
    ["{{json .Mounts}}"],
    // Not `json` of a struct the engine and the docker CLI know different versions of (a
    // network's endpoint): docker writes its own struct's fields.
    ["{{json .HostConfig.Tmpfs}} {{json .Config.Env}} {{json .State.Running}}"],
    ['{{join .Config.Env ","}} {{join .Config.Cmd " "}}'],
    [
      "{{len .Config.Env}} {{len .Mounts}} {{len .Config.Labels}} {{len .NetworkSettings.Networks}}",
    ],
    ["{{lower .Config.Image}} {{upper .Name}} {{title .State.Status}}"],
    ['{{split .Config.Image ":"}} {{split .Name ""}}'],
    ["{{pad .State.Status 2 1}}|{{truncate .Id 12}}|{{pad .Path 0 1}}"],
    [
      '{{printf "%s|%5d|%-8s|%q|%v|%t" .Name .State.ExitCode .State.Status .Config.Image .Config.Cmd .State.Running}}',
    ],
    ['{{printf "%x %X %03d %.3s %8.2f" .Name .Name .State.ExitCode .Name 3.14159}}'],
    ['{{printf "%d" .Name}} {{printf "%s %s" .Name}} {{printf "x" .Name}}'],
    ['{{print .State.ExitCode .State.Running "x" .Name}} {{println .Name .State.Pid}}'],
    [
      `{{html "<a href='x'>&\\"</a>"}} {{js "it's <b>=\\"x\\"\\\\"}} {{urlquery "a b&c=d/é~*" .Name}}`,
    ],
    [
      '{{and .State.Running .Config.Image}} {{or .Config.Entrypoint "none"}} {{not .Config.Labels}}',
    ],
    [
      '{{eq .State.ExitCode 0}} {{ne .State.Status "exited"}} {{eq .State.Status "exited" "running"}}',
    ],
    ["{{lt .State.ExitCode 1}} {{le 1 1}} {{gt (len .Mounts) 0}} {{ge (len .Config.Env) 9}}"],
  ])("%s", async (format) => {
    const [theirs, ours] = await Promise.all([
      docker(format),
      one().then((config) => cli(["inspect", "-f", format, NAME, "--config", config])),
    ]);
    expect(theirs.stderr).toBe("");
    expect(ours).toEqual({ code: 0, stdout: theirs.stdout, stderr: "" });
  });

  it.each([
    ["{{range .Mounts}}{{.Source}}"],
    ["{{end}}"],
    ["{{nope .Name}}"],
    ["{{$x}}"],
    ["{{.Name.Foo}}"],
    ["{{index .Config.Labels 1}}"],
  ])("%s is docker's template error, exit 2", async (format) => {
    const theirs = await docker(format);
    expect(theirs.stderr).toMatch(/^template parsing error: template: :1/);
    const ours = await cli(["inspect", "-f", format, NAME, "--config", await one()]);
    expect(ours).toEqual({ code: 2, stdout: "", stderr: `docklens: ${theirs.stderr}` });
  });
});
