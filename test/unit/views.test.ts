import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import { containersTable, psTable } from "../../src/cli/render/containers.ts";
import { driftView } from "../../src/cli/render/clusters.ts";
import { imagesTable } from "../../src/cli/render/lists.ts";
import { statsRow } from "../../src/cli/render/streams.ts";
import { wantsSize } from "../../src/operations/parts.ts";
import type { ClusterContainerItem } from "../../src/core/containers/containers.ts";
import type { ImageItem } from "../../src/core/objects/engine-types.ts";

const colors = new Chalk({ level: 0 });
const NOW = Date.parse("2026-11-21T12:00:00Z");

const container = (
  name: string,
  more: Partial<ClusterContainerItem> = {},
): ClusterContainerItem => ({
  Id: Buffer.from(name).toString("hex").padEnd(64, "0"),
  Names: [`/${name}`],
  Image: "docker.io/library/busybox:1",
  ImageID: `sha256:${"b".repeat(64)}`,
  Command: "sh -c 'while true; do echo hello; sleep 1; done'",
  Created: "2026-11-21T11:57:00.000Z",
  Ports: [{ IP: "0.0.0.0", PrivatePort: 80, PublicPort: 8080, Type: "tcp" }],
  Labels: { "com.example.team": "web", empty: "" },
  State: "running",
  Status: "Up 3 minutes",
  HostConfig: { NetworkMode: "bridge" },
  NetworkSettings: { Networks: { frontend: {}, bridge: {} } as never },
  Mounts: [
    {
      Type: "volume",
      Name: "data",
      Source: "/var/lib/docker/volumes/data/_data",
      Destination: "/data",
      Driver: "local",
      Mode: "",
      RW: true,
      Propagation: "",
    },
    {
      Type: "bind",
      Source: "/srv/a/very/long/path",
      Destination: "/x",
      Mode: "",
      RW: true,
      Propagation: "",
    },
  ],
  cluster: { id: 1, name: "alpha" },
  ...more,
});

const image = (more: Partial<ImageItem> = {}): ImageItem & { cluster: { name: string } } => ({
  Id: `sha256:${"d245e6731f7a".padEnd(64, "0")}`,
  ParentId: "",
  RepoTags: ["local/busybox:1", "docker.io/library/alpine:3"],
  RepoDigests: ["alpine@sha256:" + "c".repeat(64)],
  Created: "2026-11-21T11:00:00.000Z",
  Size: 1981430,
  SharedSize: -1,
  Labels: null,
  Containers: 2,
  cluster: { name: "alpha" },
  ...more,
});

describe("sizes in each column's docker units", () => {
  it("docker stats: memory in binary units, network and block I/O in decimal ones", () => {
    const row = statsRow("a".repeat(64), "web", {
      cpuPercent: 0.5,
      memoryUsage: 1.5 * 1024 ** 2,
      memoryLimit: 25275297792,
      memoryPercent: 0.01,
      netRx: 2890,
      netTx: 0,
      blockRead: 4261574,
      blockWrite: 1000,
      pids: 3,
    });
    expect(row.slice(3, 7)).toEqual(["1.5MiB / 23.54GiB", "0.01%", "2.89kB / 0B", "4.26MB / 1kB"]);
  });

  it("docker images: SIZE with three digits, decimal units", () => {
    expect(imagesTable([image()], colors, undefined, NOW)).toMatch(/ 1\.98MB /);
  });
});

describe("--format of ps, containers and images, as docker's formatter", () => {
  // Created in one second: listed as given (the engine's order), db then web.
  const ps = (format: string, items = [container("db", { Labels: {} }), container("web")]) =>
    psTable(items, colors, { format }, NOW);

  it.each([
    ["{{.Names}}", "db\nweb"],
    ["{{.ID}}", "646200000000\n776562000000"],
    ["{{.Cluster}}/{{.Names}} {{.State}}", "alpha/db running\nalpha/web running"],
    ['{{.Label "com.example.team"}}|{{.Labels}}', "|\nweb|com.example.team=web,empty="],
    [
      "{{.Networks}} {{.Mounts}} {{.LocalVolumes}}",
      "bridge,frontend data,/srv/a/very/lo… 1\nbridge,frontend data,/srv/a/very/lo… 1",
    ],
    [
      "{{.Image}} {{.Command}}",
      `busybox:1 "sh -c 'while true; …"\nbusybox:1 "sh -c 'while true; …"`,
    ],
    [
      "{{.Size}} {{.RunningFor}} {{.Ports}}",
      "0B 3 minutes ago 0.0.0.0:8080->80/tcp\n0B 3 minutes ago 0.0.0.0:8080->80/tcp",
    ],
    ["{{json .Labels}}", '""\n"com.example.team=web,empty="'],
    ['{{.Names | upper | printf "%s!"}}', "DB!\nWEB!"],
    ["{{if .Names}}x{{end}} {{$x := .Names}}{{$x}}", "x db\nx web"],
    [
      `{{upper .Names}} {{lower "AB"}} {{title "a-b c"}}|{{title "don't x·y é_f"}} {{truncate .Names 1}}`,
      "DB ab A-B C|Don'T X·y É_f d\nWEB ab A-B C|Don'T X·y É_f w",
    ],
    ['{{join (split .Labels ",") "+"}}', "\ncom.example.team=web+empty="],
    ['[{{pad .Names 1 2}}]{{pad "" 3 3}}', "[ db  ]\n[ web  ]"],
    ['{{"a\\tb"}}\\t{{`raw\\t`}}', "a\tb\traw\t\na\tb\traw\t"],
    ["{{println .Names}}", "db\n\nweb\n"],
    ["{{- .Names -}} !", "db!\nweb!"],
  ])("%s", (format, text) => {
    expect(ps(format)).toBe(text);
  });

  it("json: one object a line, docker's fields sorted and HTML-escaped, and the cluster", () => {
    const [line] = ps("json", [container("web", { Labels: { a: "<b>" } })]).split("\n");
    expect(JSON.parse(line!)).toEqual({
      Cluster: "alpha",
      Command: `"sh -c 'while true; …"`,
      CreatedAt: expect.stringMatching(/^2026-11-21 \d\d:57:00 [+-]\d{4} \S+$/),
      ID: "776562000000",
      Image: "busybox:1",
      Labels: "a=<b>",
      LocalVolumes: "1",
      Mounts: "data,/srv/a/very/lo…",
      Names: "web",
      Networks: "bridge,frontend",
      Platform: null,
      Ports: "0.0.0.0:8080->80/tcp",
      Project: "",
      RunningFor: "3 minutes ago",
      Size: "0B",
      State: "running",
      Status: "Up 3 minutes",
    });
    expect(line).toContain('"Labels":"a=\\u003cb\\u003e"');
    expect(ps("{{json .}}")).toBe(ps("json"));
  });

  it("Platform: os/arch to a template, docker's OCI platform object to json", () => {
    const descriptor = (platform: object) =>
      container("web", { ImageManifestDescriptor: { platform } });
    const amd64 = [descriptor({ architecture: "amd64", os: "linux" })];
    expect(ps("{{.Platform}}", amd64)).toBe("linux/amd64");
    expect(ps("json", amd64)).toContain('"Platform":{"architecture":"amd64","os":"linux"},');
    const arm = [
      descriptor({ os: "linux", variant: "v8", architecture: "arm64", "os.features": [] }),
    ];
    expect(ps("{{.Platform}}", arm)).toBe("linux/arm64/v8");
    expect(JSON.parse(ps("{{json .}}", arm)).Platform).toEqual({
      architecture: "arm64",
      os: "linux",
      variant: "v8",
    });
    expect(ps("{{json .}}", arm)).toContain(
      '"Platform":{"architecture":"arm64","os":"linux","variant":"v8"}',
    );
  });

  it("table: docker's header names, columns aligned as docker's tabwriter does", () => {
    expect(ps('table {{.Names}}\\t{{.Label "com.example-x_y"}}\\t{{.Status}}\\t{{.Labels}}')).toBe(
      [
        "NAMES     example x y   STATUS         LABELS",
        "db                      Up 3 minutes   ",
        "web                     Up 3 minutes   com.example.team=web,empty=",
      ].join("\n"),
    );
    expect(ps("table {{.ID}} {{.Names | upper}}").split("\n")[0]).toBe("CONTAINER ID NAMES");
    // `table` alone, or an empty format, is the command's own table.
    expect(ps("")).toBe(ps("table"));
    expect(ps("table")).toBe(
      psTable([container("db", { Labels: {} }), container("web")], colors, {}, NOW),
    );
  });

  it("--no-trunc shows ids, names, commands and images whole", () => {
    const item = container("web", { Names: ["/web", "/other/link"] });
    expect(
      psTable([item], colors, { format: "{{.ID}} {{.Names}} {{.Image}}", full: true }, NOW),
    ).toBe(`${item.Id} web,other/link docker.io/library/busybox:1`);
    expect(ps("{{.Names}}", [item])).toBe("web");
  });

  it.each([
    [
      "{{.Nope}}",
      'template: :1:2: executing "" at <.Nope>: can\'t evaluate field Nope in type *formatter.ContainerContext',
    ],
    ["x {{.Names", "template: :1: unclosed action"],
    ["{{nope .Names}}", 'template: :1: function "nope" not defined'],
    ["{{if .Names}}x", "template: :1: unexpected EOF"],
    ["{{$x}}", 'template: :1: undefined variable "$x"'],
    ["{{.Names.Nope}}", "can't evaluate field Nope in type string"],
    ["{{.Label}}", "wrong number of args for Label: want 1 got 0"],
    ["{{.Names | }}", "missing command"],
    ["{{(.Names}}", "unclosed left paren"],
  ])("%s is a template error, exit 2", (format, message) => {
    const error = (() => {
      try {
        ps(format);
      } catch (caught) {
        return caught as { code: string; message: string };
      }
    })();
    expect(error?.code).toBe("INVALID_QUERY");
    expect(error?.message).toMatch(/^template parsing error: /);
    expect(error?.message).toContain(message);
  });

  it("checks the fields even with no rows to print, as docker does", () => {
    expect(() => ps("{{.Nope}}", [])).toThrow(/can't evaluate field Nope/);
    expect(ps("{{.Names}}", [])).toBe("");
    expect(ps("table {{.Names}}", [])).toBe("NAMES");
  });

  it("--size: docker ps -s's SIZE column, last, the virtual size where the engine sent one", () => {
    const sized = container("web", { SizeRw: 12, SizeRootFs: 1981430 });
    const [header, row] = containersTable([sized], colors, { size: true }, NOW).split("\n");
    expect(header).toMatch(/NAMES +SIZE$/);
    expect(row).toMatch(/web +12B \(virtual 1\.98MB\)$/);
    expect(psTable([container("db")], colors, { size: true }, NOW).split("\n")[1]).toMatch(
      /db +0B$/,
    );
    expect(containersTable([sized], colors, {}, NOW)).not.toMatch(/SIZE|virtual/);
  });

  it.each([
    [{}, false],
    [{ size: true }, true],
    [{ size: true, quiet: true }, true],
    [{ format: "{{.Names}}" }, false],
    [{ format: "{{.Names}}\t{{.Size}}" }, true],
    [{ format: "table {{.Size}}" }, true],
    [{ format: "{{.SizeRw}}" }, false],
    [{ format: "json" }, false],
    [{ format: "{{json .}}" }, true],
    [{ format: "{{ json . }}" }, true],
    [{ format: "{{json .Labels}}" }, false],
    [{ format: "table" }, false],
    [{ format: "{{.Size}}", quiet: true }, false],
  ])("asks the engine for sizes as docker ps does: %o → %s", (options, expected) => {
    expect(wantsSize(options)).toBe(expected);
  });

  it("containers: docker's fields, without the cluster", () => {
    expect(containersTable([container("web")], colors, { format: "{{.Names}} {{.ID}}" }, NOW)).toBe(
      "web 776562000000",
    );
    expect(() => containersTable([], colors, { format: "{{.Cluster}}" }, NOW)).toThrow(
      /field Cluster/,
    );
  });

  it("images: a row per tag by familiar name, docker's fields, and the cluster", () => {
    const images = [
      image(),
      image({
        Id: `sha256:${"e".repeat(64)}`,
        RepoTags: null,
        RepoDigests: null,
        Size: 512,
        SharedSize: 100,
      }),
    ];
    expect(
      imagesTable(
        images,
        colors,
        { format: "{{.Cluster}} {{.Repository}}:{{.Tag}} {{.ID}} {{.Size}} {{.Digest}}" },
        NOW,
      ),
    ).toBe(
      [
        "alpha local/busybox:1 d245e6731f7a 1.98MB <none>",
        // A template that shows digests gets them, as docker's does.
        `alpha alpine:3 d245e6731f7a 1.98MB sha256:${"c".repeat(64)}`,
        "alpha <none>:<none> eeeeeeeeeeee 512B <none>",
      ].join("\n"),
    );
    expect(
      imagesTable([images[0]!], colors, { format: "{{.Repository}} {{.Digest}}" }, NOW).split(
        "\n",
      )[1],
    ).toBe(`alpine sha256:${"c".repeat(64)}`);
    expect(
      imagesTable(
        [images[1]!],
        colors,
        {
          format:
            "{{.Containers}} {{.SharedSize}} {{.UniqueSize}} {{.VirtualSize}} {{.CreatedSince}}",
        },
        NOW,
      ),
    ).toBe("2 100B 412B 512B About an hour ago");
    expect(
      imagesTable(
        images,
        colors,
        { format: "table {{.Repository}}\\t{{.CreatedSince}}\\t{{.Size}}" },
        NOW,
      ),
    ).toBe(
      [
        "REPOSITORY      CREATED             SIZE",
        "local/busybox   About an hour ago   1.98MB",
        "alpine          About an hour ago   1.98MB",
        "<none>          About an hour ago   512B",
      ].join("\n"),
    );
    expect(() => imagesTable(images, colors, { format: "{{.Names}}" }, NOW)).toThrow(
      /in type \*formatter\.imageContext/,
    );
  });
});

describe("the CLI's table of views (cli/views.ts)", () => {
  it("has a view for each command that makes a core call, and none for another", async () => {
    const { VIEWS } = await import("../../src/cli/views.ts");
    const { OPERATION_COMMANDS } = await import("../../src/operations/table.ts");
    const ids = OPERATION_COMMANDS.filter((spec) => spec.call).map((spec) => spec.name.join(" "));
    expect(Object.keys(VIEWS).sort()).toEqual([...ids].sort());
  });
});

describe("drift", () => {
  const engines = [{ cluster: { id: 1, name: "alpha" }, version: "28.5.1" }];
  const same = {
    reference: "local/app:1",
    clusters: [
      { cluster: { id: 1, name: "alpha" }, imageIds: [`sha256:${"a".repeat(64)}`] },
      { cluster: { id: 2, name: "bravo" }, imageIds: [`sha256:${"a".repeat(64)}`] },
    ],
    drift: false,
  };

  it("with no reference shared, says that none differs, not an empty header", () => {
    const text = driftView({ images: [], engines, errors: [] }, colors);
    expect(text).not.toMatch(/REFERENCE/);
    expect(text.split("\n")[0]).toBe(
      "No reference differs: no image reference is used on more than one cluster.",
    );
  });

  it("with shared references that all mean one image, the table and that none differs", () => {
    const text = driftView({ images: [same], engines, errors: [] }, colors);
    expect(text).toMatch(/^local\/app:1\s+alpha\s+aaaaaaaaaaaa\s+same$/m);
    expect(text).toMatch(
      /^No reference differs: the one used on several clusters is the same image on each\.$/m,
    );
    expect(
      driftView({ images: [{ ...same, drift: true }], engines, errors: [] }, colors),
    ).not.toMatch(/No reference differs/);
  });
});
