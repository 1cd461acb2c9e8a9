// The commands of the servers, as table entries: `serve` and `token hash` (the HTTP interface),
// `mcp` (the MCP server). Each loads its server only when it runs.
import { COMMON_OPTIONS, DATA_DIR_OPTION, defineCommand } from "../operations/parts.ts";
import type { NodeOptions } from "./node.ts";
import type { ServeOptions } from "./serve.ts";

export const SERVE_COMMANDS = [
  defineCommand({
    name: ["serve"],
    description: "serve the HTTP JSON interface (GET and HEAD only)",
    bare: true,
    options: [
      {
        flags: "-c, --config <path>",
        description: "config file (default: $DOCKLENS_CONFIG, else a search from here)",
      },
      { flags: "--json", description: "print the address and the request log as JSON lines" },
      { flags: "--host <host>", description: "address to listen on", default: "127.0.0.1" },
      {
        flags: "-p, --port <port>",
        description: "port to listen on (0: any free port)",
        default: "8080",
      },
      {
        flags: "--token <token>",
        description: "require Authorization: Bearer <token> (default: $DOCKLENS_TOKEN)",
      },
      {
        flags: "--token-file <path>",
        description: "the token, read from this file (kept out of ps, where --token shows)",
      },
      {
        flags: "--allowed-host <name>",
        description:
          "without a token, answer this host name too (repeatable; .example.com: every name under it)",
        parse: (value: string, all: string[] = []) => [...all, value],
      },
      {
        flags: "--cors <origin>",
        description: "let a browser page from this origin (scheme://host[:port]) read responses",
      },
      {
        flags: "--show-secrets",
        description: "show environment values that look like secrets in container detail",
      },
      {
        flags: "--tls-cert <pem>",
        description: "serve HTTPS with this certificate (and --tls-key)",
      },
      { flags: "--tls-key <pem>", description: "the certificate's private key" },
      { flags: "-q, --quiet", description: "no log line per request" },
      DATA_DIR_OPTION,
    ],
    examples: [
      ["docklens serve", "on http://127.0.0.1:8080"],
      ['docklens serve --host 0.0.0.0 --token "$(openssl rand -hex 32)"'],
      ["docklens serve --host 0.0.0.0 --token-file /run/secrets/docklens-token"],
      ["curl -s localhost:8080/list/cluster | jq ."],
    ],
    action: async (_, options: ServeOptions) => (await import("./serve.ts")).serve(options),
  }),
  defineCommand({
    name: ["node"],
    description: "serve this config's clusters to hubs over NATS, opening no port (read-only)",
    bare: true,
    options: [
      {
        flags: "--nats <url>",
        description: "NATS server(s) to dial, comma-separated (nats://host:4222)",
      },
      {
        flags: "--name <name>",
        description: "the node's name: hubs show its clusters as <name>.<cluster>",
      },
      { flags: "--nats-creds <file>", description: "NATS credentials file of this node's user" },
      {
        flags: "-c, --config <path>",
        description: "config file (default: $DOCKLENS_CONFIG, else a search from here)",
      },
      {
        flags: "--clusters <glob...>",
        description: "serve only the clusters these globs match (prod-*)",
        parse: (value: string, all: string[] = []) => [...all, value],
      },
      {
        flags: "--heartbeat <seconds>",
        description: "how often hubs hear it is there",
        default: "5",
      },
      {
        flags: "--show-secrets",
        description: "let environment values that look like secrets reach hubs",
      },
      DATA_DIR_OPTION,
    ],
    examples: [
      ["docklens node --nats nats://nats.example:4222 --name far --nats-creds far.creds"],
      ["docklens node --nats nats://127.0.0.1:4222 --name edge --clusters 'prod-*'"],
    ],
    action: async (_, options: NodeOptions) => (await import("./node.ts")).node(options),
  }),
  defineCommand({
    name: ["mcp"],
    description: "serve the read operations as MCP tools on stdin and stdout, for agents",
    bare: true,
    options: [COMMON_OPTIONS[0]!, DATA_DIR_OPTION],
    examples: [
      ["docklens mcp", "what an MCP client starts (docs/guide/mcp.md)"],
      ["docklens mcp --config ops.yaml", "the clusters of that config only"],
    ],
    action: async (_, options) => (await import("../mcp/server.ts")).serveMcp(options),
  }),
  defineCommand({
    name: ["token"],
    description: "tokens of docklens serve",
    bare: true,
    examples: [],
  }),
  defineCommand({
    name: ["token", "hash"],
    description:
      "print the SHA-256 of a token read on stdin, for a scoped token's sha256 in the config",
    bare: true,
    examples: [
      ['printf %s "$TOKEN" | docklens token hash'],
      ["openssl rand -hex 32 | tee ops.token | docklens token hash", "a new token, and its hash"],
    ],
    action: async (_, __, command) =>
      (await import("./serve-token.ts")).hashToken((message) =>
        command.error(message, { exitCode: 2 }),
      ),
  }),
];
