import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, dockerIds, engines } from "./helpers.ts";

/** A fresh directory holding `files`, to run the CLI in. */
async function workdir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(engines.tmp, "cwd-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const names = async (args: string[], options: Parameters<typeof cli>[1]) => {
  const result = await cli(["clusters", "--json", ...args], options);
  expect(result.stderr).toBe("");
  return (JSON.parse(result.stdout) as { clusters: Array<{ name: string }> }).clusters.map(
    (c) => c.name,
  );
};

const one = (name: string) => JSON.stringify({ clusters: [{ name, host: engines.hostA }] });

describe("config discovery", () => {
  it("finds .docklensrc.json, docklens.config.yaml, .docklensrc (YAML) and package.json#docklens", async () => {
    expect(await names([], { cwd: await workdir({ ".docklensrc.json": one("from-rc") }) })).toEqual(
      ["from-rc"],
    );
    expect(
      await names([], {
        cwd: await workdir({
          "docklens.config.yaml": `clusters:\n  - name: from-yaml\n    host: ${engines.hostA}\n`,
        }),
      }),
    ).toEqual(["from-yaml"]);
    expect(
      await names([], {
        cwd: await workdir({
          ".docklensrc": `clusters:\n  - { name: from-bare, host: "${engines.hostA}" }\n`,
        }),
      }),
    ).toEqual(["from-bare"]);
    expect(
      await names([], {
        cwd: await workdir({
          "package.json": JSON.stringify({ name: "x", docklens: JSON.parse(one("from-pkg")) }),
        }),
      }),
    ).toEqual(["from-pkg"]);
  });

  it("searches parent directories and ~/.config/docklens/", async () => {
    const dir = await workdir({ ".docklensrc.json": one("from-parent"), "a/b/.keep": "" });
    expect(await names([], { cwd: join(dir, "a/b") })).toEqual(["from-parent"]);
    const xdg = await workdir({
      "docklens/config.yaml": `clusters: [{ name: from-home, host: "${engines.hostA}" }]\n`,
    });
    expect(await names([], { env: { XDG_CONFIG_HOME: xdg } })).toEqual(["from-home"]);
  });

  it("takes DOCKLENS_CONFIG over a found file, and --config over both", async () => {
    const dir = await workdir({
      ".docklensrc.json": one("found"),
      "env.json": one("from-env"),
      "flag.json": one("from-flag"),
    });
    expect(await names([], { cwd: dir, env: { DOCKLENS_CONFIG: join(dir, "env.json") } })).toEqual([
      "from-env",
    ]);
    expect(
      await names(["--config", "flag.json"], {
        cwd: dir,
        env: { DOCKLENS_CONFIG: join(dir, "env.json") },
      }),
    ).toEqual(["from-flag"]);
  });
});

describe("the embedded default", () => {
  it("is the cluster local, id 1, on DOCKER_HOST", async () => {
    const env = { DOCKER_HOST: engines.hostA };
    const result = await cli(["clusters", "--json"], { env });
    const [local] = JSON.parse(result.stdout).clusters;
    expect(local).toMatchObject({
      id: 1,
      name: "local",
      fullname: "🐳 local",
      host: engines.hostA.replace("unix://", ""),
      port: 0,
    });
    expect(local.error).toBeUndefined();
    const byName = JSON.parse((await cli(["containers", "local", "--json"], { env })).stdout);
    const byId = JSON.parse((await cli(["containers", "1", "--json"], { env })).stdout);
    const truth = await dockerIds(engines.hostA, "ps", "-aq", "--no-trunc");
    expect(byName.containers.map((c: { Id: string }) => c.Id).sort()).toEqual(truth);
    expect(byId.containers.map((c: { Id: string }) => c.Id).sort()).toEqual(truth);
  });

  it("reaches a DOCKER_HOST without a scheme (host:port, :port) as the docker CLI does", async () => {
    const port = new URL(engines.hostB).port;
    const truth = await dockerIds(`127.0.0.1:${port}`, "volume", "ls", "-q");
    expect(truth).toEqual(["b-vol"]);
    for (const host of [`127.0.0.1:${port}`, `:${port}`, `localhost:${port}`]) {
      const result = await cli(["volumes", "local", "--json"], { env: { DOCKER_HOST: host } });
      expect(result.stderr, host).toBe("");
      expect(JSON.parse(result.stdout).Volumes.map((v: { Name: string }) => v.Name)).toEqual(truth);
    }
    // DOCKER_CERT_PATH without DOCKER_TLS_VERIFY or DOCKER_TLS means nothing to the docker CLI.
    const result = await cli(["volumes", "local", "--json"], {
      env: { DOCKER_HOST: engines.hostB, DOCKER_CERT_PATH: "/nonexistent" },
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).Volumes.map((v: { Name: string }) => v.Name)).toEqual(truth);
  });

  it("reaches a TCP DOCKER_HOST", async () => {
    const result = await cli(["volumes", "local", "--json"], {
      env: { DOCKER_HOST: engines.hostB },
    });
    expect(JSON.parse(result.stdout).Volumes.map((v: { Name: string }) => v.Name)).toEqual([
      "b-vol",
    ]);
  });
});

describe("config errors: exit 2, one line naming the file and the field", () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      "a port that is not an integer",
      "bad.json",
      JSON.stringify({
        clusters: [
          { name: "a", host: "h" },
          { name: "b", host: "h", port: "abc" },
        ],
      }),
      /bad\.json: clusters\[1\]\.port: expected an integer$/,
    ],
    [
      "a missing host",
      "bad.yaml",
      "clusters:\n  - name: a\n",
      /bad\.yaml: clusters\[0\]\.host: required$/,
    ],
    [
      "a name made of digits",
      "bad.json",
      JSON.stringify({ clusters: [{ name: "42", host: "h" }] }),
      /clusters\[0\]\.name: must not be made only of digits/,
    ],
    [
      "a duplicate name",
      "bad.json",
      JSON.stringify({
        clusters: [
          { name: "a", host: "h" },
          { name: "a", host: "i" },
        ],
      }),
      /clusters\[1\]\.name: duplicate name "a"$/,
    ],
    [
      "a duplicate id",
      "bad.json",
      JSON.stringify({
        clusters: [
          { id: 2, name: "a", host: "h" },
          { name: "b", host: "i" },
        ],
      }),
      /clusters\[1\]\.id: duplicate id 2$/,
    ],
    [
      "an unknown key",
      "bad.json",
      JSON.stringify({ clusters: [{ name: "a", host: "h", prot: 1 }] }),
      /clusters\[0\]: unknown key "prot" \(did you mean "port"\?\)$/,
    ],
    ["broken YAML", "bad.yaml", "clusters: [\n", /cannot read config .*bad\.yaml/],
    ["broken JSON", "bad.json", "{ clusters: ", /cannot read config .*bad\.json/],
    ["an empty file", "bad.yaml", "", /bad\.yaml: the file is empty$/],
    [
      "a .cjs config that throws: its own error",
      "bad.cjs",
      'throw new Error("no clusters for you");\n',
      /^docklens: cannot read config .*\/bad\.cjs: no clusters for you$/,
    ],
    [
      "a .mjs config that throws: its own error",
      "bad.mjs",
      'throw new TypeError("bad value");\nexport default {};\n',
      /^docklens: cannot read config .*\/bad\.mjs: bad value$/,
    ],
    [
      "a .mjs config that imports a missing module",
      "bad.mjs",
      'import "docklens-no-such-module";\nexport default { clusters: [] };\n',
      /^docklens: cannot read config .*\/bad\.mjs: Cannot find package 'docklens-no-such-module' imported from .*\/bad\.mjs$/,
    ],
    [
      "a .js config that throws something not an Error",
      "bad.js",
      'throw "a string";\n',
      /^docklens: cannot read config .*\/bad\.js: a string$/,
    ],
    ["no clusters", "bad.json", "{}", /bad\.json: clusters: /],
  ];
  for (const [label, file, text, message] of cases) {
    it(label, async () => {
      const dir = await workdir({ [file]: text });
      const result = await cli(["clusters", "--config", join(dir, file)], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(message);
      expect(result.stderr).toMatch(/^docklens: /);
    });
  }

  it("a --config file that does not exist", async () => {
    const result = await cli(["containers", "x", "--config", "/nonexistent/docklens.json"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "docklens: cannot read config /nonexistent/docklens.json: no such file\n",
    });
  });

  it("a found .cjs config that throws names itself and its error", async () => {
    const result = await cli(["clusters"], {
      cwd: await workdir({ "docklens.config.cjs": 'throw new Error("boom");\n' }),
    });
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^docklens: cannot read config .*\/docklens\.config\.cjs: boom\n$/,
      ),
    });
  });

  it("a found config that is broken stops the search", async () => {
    const result = await cli(["clusters"], {
      cwd: await workdir({ ".docklensrc.json": '{"clusters": 5}' }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\.docklensrc\.json: clusters: expected an array of clusters/);
  });

  it("a DOCKER_HOST docklens cannot use", async () => {
    const result = await cli(["clusters"], {
      env: { DOCKER_HOST: "npipe:////./pipe/docker_engine" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^docklens: DOCKER_HOST "npipe:.*": unsupported engine address/);
  });
});
