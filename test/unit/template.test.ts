import { describe, expect, it } from "vitest";
import { inspectView } from "../../src/cli/render/inspect.ts";

/** A container's inspect body, as an engine sends it: what the templates below run on. */
const BODY = {
  Id: "abc123",
  Name: "/job",
  State: { Status: "exited", Running: false, ExitCode: 1, Pid: 0 },
  Config: {
    Image: "busybox",
    Labels: { tier: "front", app: "web", "com.example.team": "ops" },
    Env: ["PATH=/bin", "MODE=fast"],
    Cmd: ["sh", "-c", "exit 1"],
    Entrypoint: null,
    Volumes: null,
  },
  HostConfig: { Binds: null, PidsLimit: null, Memory: 0 },
  Mounts: [
    { Type: "volume", Name: "data", Source: "/var/lib/docker/volumes/data/_data", RW: true },
    { Type: "bind", Source: "/srv", RW: false },
  ],
  NetworkSettings: {
    Networks: {
      "lens-net": { IPAddress: "192.0.2.10", Aliases: null },
      bridge: { IPAddress: "172.17.0.2", Aliases: ["a", "b"] },
    },
  },
};

const run = (format: string, body: object = BODY) => inspectView([body], format);
const failure = (format: string) => {
  try {
    run(format);
  } catch (error) {
    return (error as { code: string; message: string }).message;
  }
  return undefined;
};

describe("Go's text/template, as docker inspect -f runs it", () => {
  it.each([
    // Actions.
    ["{{if .State.Running}}up{{else}}down{{end}}", "down"],
    ["{{if eq .State.ExitCode 0}}ok{{else if eq .State.ExitCode 1}}one{{else}}other{{end}}", "one"],
    ["{{with .Config.Image}}image {{.}}{{end}}", "image busybox"],
    ["{{with .Config.Entrypoint}}x{{else}}none{{end}}", "none"],
    ["{{range .Mounts}}{{.Source}} {{end}}", "/var/lib/docker/volumes/data/_data /srv "],
    ["{{range $i, $m := .Mounts}}{{$i}}={{$m.Type}},{{end}}", "0=volume,1=bind,"],
    [
      "{{range $k, $v := .Config.Labels}}{{$k}}={{$v}};{{end}}",
      "app=web;com.example.team=ops;tier=front;",
    ],
    ["{{range .Config.Volumes}}x{{else}}no volumes{{end}}", "no volumes"],
    [
      "{{range $name, $n := .NetworkSettings.Networks}}{{$name}} {{$n.IPAddress}} {{end}}",
      "bridge 172.17.0.2 lens-net 192.0.2.10 ",
    ],
    ['{{range .Config.Env}}{{if eq . "MODE=fast"}}{{break}}{{end}}{{.}} {{end}}', "PATH=/bin "],
    ['{{range .Config.Env}}{{if eq . "PATH=/bin"}}{{continue}}{{end}}{{.}}{{end}}', "MODE=fast"],
    ["{{range 3}}{{.}}{{end}}", "012"],
    // Variables, pipelines, parentheses, comments, trim markers.
    ["{{$name := .Name}}{{$name}} {{$.Id}}", "/job abc123"],
    ["{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}", "2"],
    ['{{.Config.Image | upper | printf "%s!"}}', "BUSYBOX!"],
    ["{{(index .Mounts 1).Source}}", "/srv"],
    ["{{/* a comment */}}a {{- /* trimmed */ -}} b", "ab"],
    ["a  {{- .State.Status -}}  b", "aexitedb"],
    // Functions.
    ['{{index .Config.Labels "app"}}|{{index .Config.Labels "nope"}}', "web|"],
    ["{{len .Mounts}} {{len .Config.Labels}} {{len .Name}}", "2 3 4"],
    ["{{json .Config.Labels}}", '{"tier":"front","app":"web","com.example.team":"ops"}'],
    ["{{json .Config.Entrypoint}} {{json .HostConfig.PidsLimit}}", "null null"],
    ['{{join .Config.Cmd " "}}', "sh -c exit 1"],
    ['{{split .Config.Image "y"}}', "[bus box]"],
    ['{{lower "AB"}} {{title "hello world"}}', "ab Hello World"],
    ["{{pad .Config.Image 1 2}}|{{truncate .Config.Image 3}}", " busybox  |bus"],
    [
      '{{printf "%-6s|%5d|%q|%t|%x|%v" "ab" 42 "x" true 255 .Config.Cmd}}',
      'ab    |   42|"x"|true|ff|[sh -c exit 1]',
    ],
    [
      '{{printf "%d" "x"}} {{printf "%s"}} {{printf "a" 1}}',
      "%!d(string=x) %!s(MISSING) a%!(EXTRA int=1)",
    ],
    ['{{print 1 2 "a" 3}} {{println 1 2}}', "1 2a3 1 2\n"],
    [
      '{{and 1 0 2}} {{or 0 "" 3}} {{not .State.Running}} {{and .State.Running .Nope}}',
      "0 3 true false",
    ],
    [
      '{{ne 1 2}} {{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge 1 2}} {{eq .Name "/a" "/job"}}',
      "true true true true false true",
    ],
    [
      `{{html "<a href='x'>&\\"</a>"}} {{js "it's <b>=\\"x\\"\\\\"}} {{urlquery "a b&c=d/é~*"}} {{html 1 2}}`,
      `&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt; it\\'s \\u003Cb\\u003E\\u003D\\"x\\"\\\\ a+b%26c%3Dd%2F%C3%A9~%2A 1 2`,
    ],
    // Go's printing: maps sorted, lists, nil slices, maps and pointers.
    ["{{.Config.Labels}}", "map[app:web com.example.team:ops tier:front]"],
    [
      "{{.Config.Env}} {{.Config.Entrypoint}} {{.Config.Volumes}} {{.HostConfig.PidsLimit}}",
      "[PATH=/bin MODE=fast] [] map[] <nil>",
    ],
    ["{{.State.Health}} {{if .State.Health}}x{{end}}", "<nil> "],
    [
      "{{.HostConfig.Memory}} {{1.5}} {{0.00001}} {{'a'}} {{0x10}} {{-0x10}} {{1_000}} {{.5}}",
      "0 1.5 1e-05 97 16 -16 1000 0.5",
    ],
  ])("%s", (format, output) => {
    expect(run(format)).toBe(output);
  });

  it.each([
    ["{{range .Mounts}}", "template: :1: unexpected EOF"],
    ["{{end}}", "template: :1: unexpected {{end}}"],
    ["{{if}}x{{end}}", "template: :1: missing value for if"],
    ["a\n{{nope .Name}}", 'template: :2: function "nope" not defined'],
    ["{{$x}}", 'template: :1: undefined variable "$x"'],
    ["{{.Name", "template: :1: unclosed action"],
    ["{{/* x }}", "template: :1: unclosed comment"],
    [
      '{{index .Mounts "a"}}',
      'template: :1:2: executing "" at <index .Mounts "a">: error calling index: cannot index slice/array with type string',
    ],
    [
      "{{.State.Nope}}",
      'template: :1:8: executing "" at <.State.Nope>: map has no entry for key "Nope"',
    ],
    [
      "{{.Name.Nope}}",
      'template: :1:7: executing "" at <.Name.Nope>: can\'t evaluate field Nope in type interface {}',
    ],
    [
      "{{range .Name}}{{end}}",
      'template: :1:8: executing "" at <.Name>: range can\'t iterate over /job',
    ],
    [
      '{{lt 1 "a"}}',
      'template: :1:2: executing "" at <lt 1 "a">: error calling lt: incompatible types for comparison',
    ],
    [
      "{{len}}",
      'template: :1:2: executing "" at <len>: wrong number of args for len: want 1 got 0',
    ],
  ])("%s is Go's error", (format, message) => {
    expect(failure(format)).toBe(`template parsing error: ${message}`);
  });
});
