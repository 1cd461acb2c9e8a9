// The `nats` key of the config file (docs/guide/nats.md): where a hub finds every node
// that serves its clusters over NATS. Checked with the rest of the config.
import { z } from "zod/mini";
import { cached } from "./cached.ts";

/** The `nats` key, made when a config file has it. */
export const natsSchema = cached(() => {
  const text = z.string({ error: "expected a string" });
  /** A NATS server's URL: `nats://`, `tls://`, `ws://` or `wss://`, with a host. */
  const server = text.check(
    z.regex(/^(nats|tls|ws|wss):\/\/[^\s/]+\/?$/, "expected a URL such as nats://host:4222"),
  );
  return z.strictObject(
    {
      servers: z
        .array(server, { error: "expected an array of NATS server URLs" })
        .check(
          z.minLength(1, "expected at least one server"),
          z.maxLength(64, "expected at most 64 servers"),
        ),
      /** A credentials file (a user's JWT and nkey seed), for a server with accounts. */
      creds: z.optional(text.check(z.minLength(1, "expected a file path"))),
    },
    { error: "expected an object with a `servers` array" },
  );
});

/** The `nats` key as written. */
export interface NatsConfigInput {
  servers: string[];
  creds?: string;
}

/** Where a hub finds its nodes over NATS. */
export type NatsConfig = NatsConfigInput;
