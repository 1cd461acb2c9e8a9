import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import type { ListClustersResult, OutputLine, ReadLogsResult } from "../index.ts";
import { addAcrossCommands } from "./across-commands.ts";
import {
  common,
  examples,
  FILTER_HELP,
  filterOption,
  run,
  watchOption,
  type ListCommandOptions,
} from "./define.ts";
import type { CommandOptions } from "./run.ts";

const EXAMPLES = `${examples([
  ["docklens clusters", "every cluster, its engine version and state"],
  ["docklens containers local", "containers of the cluster named local"],
  ["docklens containers 2 --running", "running containers of the cluster with id 2"],
  ["docklens ps --filter health=unhealthy", "unhealthy containers of every cluster"],
  ["docklens images --filter dangling=true", "dangling images everywhere"],
  ["docklens volumes prod --json | jq '.Volumes[].Name'"],
  ["docklens detail container prod web", "what the engine knows of container web"],
  ["docklens detail cluster prod --json"],
  ["docklens logs prod web --since 10m -f", "new lines until Ctrl-C"],
  ["docklens stats prod web --stream"],
  ['docklens serve --port 8080 --token "$TOKEN"', "the same as an HTTP JSON interface"],
])}

Config: --config <path>, else $DOCKLENS_CONFIG, else .docklensrc[.json|.yaml],
docklens.config.{json,yaml,js,ts} or ~/.config/docklens/config.yaml; with none,
the cluster "local" on $DOCKER_HOST or /var/run/docker.sock.`;

/** The flag of each query parameter a CLI error may name: the CLI speaks of its own flags. */
const FLAGS: Record<string, string> = {
  tail: "--tail",
  since: "--since",
  until: "--until",
  stream: "--stream",
  ps_args: "--ps-args",
  filter: "--filter",
};

/** A command on one container: `<cluster> <container>`. */
function containerCommand(program: Command, name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .argument("<cluster>", "cluster name or id")
    .argument("<container>", "container name, id or id prefix");
}

interface LogsCommandOptions extends CommandOptions {
  tail: string;
  since?: string;
  until?: string;
  stream: string;
  timestamps?: boolean;
  follow?: boolean;
}

/** The flags of `docklens logs` as the query of the logs route, checked by the same code. */
function logsQuery(options: LogsCommandOptions): Record<string, string> {
  return {
    tail: options.tail,
    stream: options.stream,
    ...(options.since !== undefined ? { since: options.since } : {}),
    ...(options.until !== undefined ? { until: options.until } : {}),
    ...(options.timestamps ? { timestamps: "true" } : {}),
    ...(options.follow ? { follow: "true" } : {}),
  };
}

/** The commander program; exported for tests of the usage text. */
export function createProgram(): Command {
  const program = new Command("docklens")
    .description("Inspect many Docker engines at once, read-only.")
    .version(pkg.version, "-v, --version")
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .addHelpText("after", EXAMPLES)
    .hook("preAction", inheritOptions);

  watchOption(
    common(
      program.command("clusters").description("list the clusters with their engine information"),
    ),
  )
    .addHelpText(
      "after",
      examples([
        ["docklens clusters"],
        [
          "docklens clusters --json | jq -r '.clusters[] | select(.error) | .name'",
          "clusters whose engine fails",
        ],
        ["docklens clusters --watch"],
      ]),
    )
    .action((options: CommandOptions) =>
      run<ListClustersResult & { unhealthy?: Map<number, number> }>(
        options,
        async (lib, o) => {
          // The table counts unhealthy containers too: one more fan-out, which the JSON body (the
          // route's) does without.
          if (options.json) return lib.listClusters(o);
          const [body, sick] = await Promise.all([
            lib.listClusters(o),
            lib.listAllContainers({ ...o, filters: { health: ["unhealthy"] } }),
          ]);
          const unhealthy = new Map<number, number>();
          for (const { cluster } of sick.containers)
            unhealthy.set(cluster.id, (unhealthy.get(cluster.id) ?? 0) + 1);
          return { ...body, unhealthy };
        },
        (t, r, colors) => t.clustersTable(r.clusters, colors, r.unhealthy),
      ),
    );

  watchOption(
    filterOption(
      common(
        program
          .command("containers")
          .description("list the containers of a cluster, stopped ones included")
          .argument("<cluster>", "cluster name or id"),
      ),
      FILTER_HELP.containers,
    ),
  )
    .option("--running", "only running containers (the JSON body always holds both lists)")
    .addHelpText(
      "after",
      examples([
        ["docklens containers local"],
        ["docklens containers 2 --running", "the cluster with id 2"],
        ["docklens containers local --filter label=app=web"],
        ["docklens containers local --json | jq -r '.running[].Names[0]'"],
      ]),
    )
    .action((cluster: string, options: ListCommandOptions & { running?: boolean }) =>
      run(
        options,
        (lib, o) =>
          lib.listContainers(cluster, {
            ...o,
            filters: lib.parseFilters("containers", options.filter ?? []),
          }),
        (t, r, colors) => t.containersTable(options.running ? r.running : r.containers, colors),
      ),
    );

  filterOption(
    common(
      program
        .command("networks")
        .description("list the networks of a cluster")
        .argument("<cluster>", "cluster name or id"),
    ),
    FILTER_HELP.networks,
  )
    .addHelpText(
      "after",
      examples([
        ["docklens networks local"],
        ["docklens networks local --filter driver=bridge --json | jq -r '.networks[].Name'"],
      ]),
    )
    .action((cluster: string, options: ListCommandOptions) =>
      run(
        options,
        (lib, o) =>
          lib.listNetworks(cluster, {
            ...o,
            filters: lib.parseFilters("networks", options.filter ?? []),
          }),
        (t, r, colors) => t.networksTable(r.networks, colors),
      ),
    );

  filterOption(
    common(
      program
        .command("volumes")
        .description("list the volumes of a cluster")
        .argument("<cluster>", "cluster name or id"),
    ),
    FILTER_HELP.volumes,
  )
    .addHelpText(
      "after",
      examples([
        ["docklens volumes local"],
        ["docklens volumes local --filter dangling=true --json | jq -r '.Volumes[].Name'"],
      ]),
    )
    .action((cluster: string, options: ListCommandOptions) =>
      run(
        options,
        (lib, o) =>
          lib.listVolumes(cluster, {
            ...o,
            filters: lib.parseFilters("volumes", options.filter ?? []),
          }),
        (t, r, colors) => t.volumesTable(r.Volumes, colors),
      ),
    );

  addAcrossCommands(program);

  common(
    program
      .command("config")
      .description("show the config file used (or why none) and where each cluster came from"),
  )
    .addHelpText(
      "after",
      examples([
        ["docklens config"],
        ["docklens config --json | jq '.clusters[] | {name, source, context}'"],
      ]),
    )
    .action((options: CommandOptions) =>
      run(
        options,
        (lib, o) => lib.describeConfig(o),
        (v, r, colors) => v.configView(r, colors),
      ),
    );

  const detail = common(
    program.command("detail").description("inspect one item; alone, list the detail routes"),
  )
    .allowExcessArguments()
    .addHelpText(
      "after",
      examples([
        ["docklens detail", "the detail routes"],
        ["docklens detail cluster local"],
        ["docklens detail container local web --json"],
        ["docklens detail image local local/busybox:1"],
      ]),
    )
    .action(async (options: CommandOptions, command: Command) => {
      // With subcommands and an action of its own, commander takes a misspelt subcommand for an argument.
      if (command.args.length) return unknownSubcommand(command);
      return run(
        options,
        (lib) => lib.listDetailRoutes(),
        (t, r, colors) => t.routesTable(r, colors),
      );
    });
  common(
    detail
      .command("cluster")
      .description("a cluster and its engine information")
      .argument("<cluster>", "cluster name or id"),
  ).action((cluster: string, options: CommandOptions) =>
    // The body is printed either way; an engine that failed still makes the command fail, as elsewhere.
    run(
      options,
      (lib, o) => lib.inspectCluster(cluster, o),
      (t, r, colors) => t.clusterDetail(r, colors),
      { failure: (r) => r.error },
    ),
  );
  common(
    detail
      .command("container")
      .description("what the engine knows of one container")
      .argument("<cluster>", "cluster name or id")
      .argument("<name>", "container name, id or id prefix"),
  )
    .option("--show-secrets", "show environment values that look like secrets")
    .action((cluster: string, name: string, options: CommandOptions & { showSecrets?: boolean }) =>
      run(
        options,
        (lib, o) =>
          lib.inspectContainer(
            { cluster, name },
            { ...o, ...(options.showSecrets ? { showSecrets: true } : {}) },
          ),
        (v, r, colors) => v.containerDetail(r, colors),
      ),
    );
  common(
    detail
      .command("image")
      .description("what the engine knows of one image")
      .argument("<cluster>", "cluster name or id")
      .argument("<image>", "reference (local/app:1) or id"),
  ).action((cluster: string, name: string, options: CommandOptions) =>
    run(
      options,
      (lib, o) => lib.inspectImage({ cluster, name }, o),
      (v, r, colors) => v.imageDetail(r, colors),
    ),
  );
  common(
    detail
      .command("volume")
      .description("what the engine knows of one volume")
      .argument("<cluster>", "cluster name or id")
      .argument("<volume>", "volume name"),
  ).action((cluster: string, name: string, options: CommandOptions) =>
    run(
      options,
      (lib, o) => lib.inspectVolume({ cluster, name }, o),
      (v, r, colors) => v.volumeDetail(r, colors),
    ),
  );
  common(
    detail
      .command("network")
      .description("what the engine knows of one network")
      .argument("<cluster>", "cluster name or id")
      .argument("<network>", "network name or id"),
  ).action((cluster: string, name: string, options: CommandOptions) =>
    run(
      options,
      (lib, o) => lib.inspectNetwork({ cluster, name }, o),
      (v, r, colors) => v.networkDetail(r, colors),
    ),
  );

  common(containerCommand(program, "logs", "print the logs of a container, like docker logs"))
    .option("-n, --tail <lines>", 'last lines to show, or "all"', "100")
    .option("--since <time>", "from this time: Unix seconds, RFC 3339, or a duration like 10m")
    .option("--until <time>", "up to this time, same forms")
    .option("--stream <stream>", "stdout, stderr or both", "both")
    .option("-t, --timestamps", "show each line's time")
    .option("-f, --follow", "keep printing new lines until Ctrl-C or the container stops")
    .addHelpText(
      "after",
      examples([
        ["docklens logs local web -n 20"],
        ["docklens logs local web --since 2026-11-22T10:00 --until 10m"],
        ["docklens logs local web -f --stream stderr"],
      ]),
    )
    .action((cluster: string, name: string, options: LogsCommandOptions) =>
      run<ReadLogsResult | OutputLine>(
        options,
        (lib, o) => {
          const query = lib.parseLogsQuery(logsQuery(options));
          return query.follow
            ? lib.followContainerLogs({ cluster, name }, { ...o, query })
            : lib.readContainerLogs({ cluster, name }, { ...o, query });
        },
        (v, r, colors) =>
          "lines" in r
            ? r.lines.map((line) => v.outputLine(line, colors)).join("\n")
            : v.outputLine(r, colors),
      ),
    );

  let drawn = 0;
  common(containerCommand(program, "stats", "show a container's resource use, like docker stats"))
    .option("--stream", "refresh with every engine sample until Ctrl-C")
    .addHelpText(
      "after",
      examples([
        ["docklens stats local web"],
        ["docklens stats local web --json | jq .summary.memoryPercent"],
      ]),
    )
    .action((cluster: string, name: string, options: CommandOptions & { stream?: boolean }) =>
      run(
        options,
        (lib, o) =>
          options.stream
            ? lib.streamContainerStats({ cluster, name }, o)
            : lib.readContainerStats({ cluster, name }, o),
        (v, r, colors) => {
          const table = v.statsTable(r, colors);
          // On a terminal each sample redraws the last one in place, as docker stats does.
          const redraw =
            options.stream && process.stdout.isTTY && drawn ? `\u001b[${drawn}A\u001b[J` : "";
          drawn = table.split("\n").length;
          return redraw + table;
        },
      ),
    );

  common(
    containerCommand(program, "top", "list the processes of a running container, like docker top"),
  )
    .option("--ps-args <args>", "arguments of ps on the engine's host", "-ef")
    .addHelpText(
      "after",
      examples([["docklens top local web"], ['docklens top local web --ps-args "-o pid,comm"']]),
    )
    .action((cluster: string, name: string, options: CommandOptions & { psArgs: string }) =>
      run(
        options,
        (lib, o) => lib.listProcesses({ cluster, name }, { ...o, psArgs: options.psArgs }),
        (v, r, colors) => v.processesTable(r, colors),
      ),
    );

  common(
    containerCommand(
      program,
      "attach",
      "print a running container's live output until Ctrl-C (read-only)",
    ),
  )
    .addHelpText(
      "after",
      examples([["docklens attach local web"], ["docklens attach local web --json | jq -r .text"]]),
    )
    .action((cluster: string, name: string, options: CommandOptions) =>
      run(
        options,
        (lib, o) => lib.attachContainer({ cluster, name }, o),
        (v, r, colors) => v.outputLine(r, colors),
      ),
    );

  program
    .command("serve")
    .description("serve the HTTP JSON interface (GET and HEAD only)")
    .option(
      "-c, --config <path>",
      "config file (default: $DOCKLENS_CONFIG, else a search from here)",
    )
    .option("--json", "print the address and the request log as JSON lines")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("-p, --port <port>", "port to listen on (0: any free port)", "8080")
    .option("--token <token>", "require Authorization: Bearer <token> (default: $DOCKLENS_TOKEN)")
    .option("--cors <origin>", "let a browser page from this origin read responses")
    .option("--show-secrets", "show environment values that look like secrets in container detail")
    .option("--tls-cert <pem>", "serve HTTPS with this certificate (and --tls-key)")
    .option("--tls-key <pem>", "the certificate's private key")
    .option("-q, --quiet", "no log line per request")
    .addHelpText(
      "after",
      examples([
        ["docklens serve", "on http://127.0.0.1:8080"],
        ['docklens serve --host 0.0.0.0 --token "$(openssl rand -hex 32)"'],
        ["curl -s localhost:8080/list/cluster | jq ."],
      ]),
    )
    .action(async (options: import("./serve.ts").ServeOptions) =>
      (await import("./serve.ts")).serve(options),
    );

  program
    .command("token")
    .description("tokens of docklens serve")
    .command("hash")
    .description(
      "print the SHA-256 of a token read on stdin, for a scoped token's sha256 in the config",
    )
    .addHelpText(
      "after",
      examples([
        ['printf %s "$TOKEN" | docklens token hash'],
        ["openssl rand -hex 32 | tee ops.token | docklens token hash", "a new token, and its hash"],
      ]),
    )
    .action(async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      // One line's end is the shell's, not the token's.
      const token = Buffer.concat(chunks)
        .toString("utf8")
        .replace(/\r?\n$/, "");
      if (!token || /\s/.test(token))
        program.error(
          'error: expected one token on stdin, with no spaces (printf %s "$TOKEN" | docklens token hash)',
          { exitCode: 2 },
        );
      const { digest } = await import("../server/auth.ts");
      process.stdout.write(`${digest(token).toString("hex")}\n`);
    });

  return program;
}

/**
 * Run the CLI. Errors become one line on stderr and an exit code (D10, D14): 1 for an error
 * of the engines or of a lookup, 2 for a usage or config error; never a stack trace.
 */
export async function main(argv: string[] = process.argv): Promise<void> {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0); // `docklens ... | head` closed the pipe: not an error.
  });
  const program = createProgram();
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride().configureOutput({
      outputError: (text, write) => write(`docklens: ${text.replace(/^error: /, "")}`),
    });
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error);
  }
}

/**
 * Options given before a subcommand (`detail --json container local web`) are the parent's in
 * commander; they mean the same to the subcommand, unless it was given its own.
 */
function inheritOptions(_program: Command, action: Command): void {
  for (let parent = action.parent; parent; parent = parent.parent) {
    for (const [key, value] of Object.entries(parent.opts())) {
      const given = parent.getOptionValueSource(key);
      const own = action.getOptionValueSource(key);
      if (value !== undefined && given !== "default" && (own === undefined || own === "default"))
        action.setOptionValueWithSource(key, value, given ?? "cli");
    }
  }
}

/** `detail containr`: a usage error that names the subcommand meant, as the top level does. */
async function unknownSubcommand(command: Command): Promise<never> {
  const { default: leven } = await import("leven");
  const name = command.args[0]!;
  const closest = command.commands
    .map((sub) => sub.name())
    .sort((a, b) => leven(name, a) - leven(name, b))[0];
  const suggestion =
    closest && leven(name, closest) <= Math.max(2, Math.floor(name.length / 3))
      ? `\n(Did you mean ${closest}?)`
      : "";
  return command.error(`error: unknown command '${name}' for '${command.name()}'${suggestion}`, {
    code: "commander.unknownCommand",
  });
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}

const USAGE_ERRORS = new Set(["INVALID_CONFIG", "INVALID_QUERY", "INVALID_NAME"]);

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  const err = error as { name?: string; code?: string; message?: string };
  if (err?.name === "DocklensError") {
    const param = (error as { param?: string }).param;
    const message =
      param && FLAGS[param] && err.message?.startsWith(`${param}:`)
        ? `${FLAGS[param]}${err.message.slice(param.length)}`
        : err.message;
    process.stderr.write(`docklens: ${message}\n`);
    // A malformed argument (INVALID_NAME: `../x`) or flag value (INVALID_QUERY: --tail x) is a
    // usage error, like a bad config; lookups and engines that fail are errors (1).
    return USAGE_ERRORS.has(err.code ?? "") ? 2 : 1;
  }
  process.stderr.write(`docklens: unexpected error: ${err?.message ?? String(error)}\n`);
  return 1;
}
