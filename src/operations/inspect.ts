// `docklens inspect <cluster> <name...>`: docker inspect's command, of one cluster (with one
// cluster in the config, every word is a name, as docker's: left-out-cluster.ts). It finds each
// name as docker inspect does without --type (a container, else an image, a volume, a network),
// and prints what docker prints: a JSON array of the engine's bodies, or a template a body.
import type { CoreOptions, ItemRef } from "../core/engine/fleet.ts";
import type { Failure } from "./command.ts";
import type { Operation } from "./operation.ts";
import { CLUSTER_ARG, defineCommand } from "./parts.ts";

/** The kinds docker inspect looks through, in its order, and how the core reads each. */
const KINDS = {
  container: async (ref: ItemRef, options: CoreOptions) =>
    (await import("../core/containers/containers.ts")).inspectContainer(ref, options),
  image: async (ref: ItemRef, options: CoreOptions) =>
    (await import("../core/objects/images.ts")).inspectImage(ref, options),
  volume: async (ref: ItemRef, options: CoreOptions) =>
    (await import("../core/objects/volumes.ts")).inspectVolume(ref, options),
  network: async (ref: ItemRef, options: CoreOptions) =>
    (await import("../core/objects/networks.ts")).inspectNetwork(ref, options),
} as const;
type Kind = keyof typeof KINDS;

/** The bodies `inspect` found, in the order of the names; `missing`, the names it did not find. */
export type InspectResult = object[] & { missing?: string[] };

/** An error that means "not this kind": the next kind is asked, as docker inspect does. */
const NOT_THIS_KIND = /^(CONTAINER|IMAGE|VOLUME|NETWORK)_NOT_FOUND$|^INVALID_NAME$/;

/** The body of `name`: of the first kind of `kinds` that has it; `undefined` when none has. */
async function findObject(
  ref: ItemRef,
  kinds: readonly Kind[],
  options: CoreOptions,
): Promise<object | undefined> {
  for (const kind of kinds) {
    try {
      return await KINDS[kind](ref, options);
    } catch (error) {
      if (!NOT_THIS_KIND.test((error as { code?: string }).code ?? "")) throw error;
    }
  }
  return undefined;
}

const TYPES = Object.keys(KINDS) as Kind[];

/** `docklens inspect`: a command of the CLI alone, over the detail routes' core calls. */
export const inspect: Operation = {
  command: defineCommand({
    name: ["inspect"],
    description:
      "print the engine's bodies of containers, images, volumes or networks, as docker inspect",
    args: [
      CLUSTER_ARG,
      ["<name...>", "names or ids: a container, else an image, a volume, a network"],
    ],
    options: [
      {
        flags: "-f, --format <template>",
        description:
          "a Go template a body ({{.State.Status}}, {{json .Config}}, {{range .Mounts}}), as docker's",
      },
      { flags: "--type <type>", description: `only this kind (${TYPES.join(", ")})` },
    ],
    examples: [
      ["docklens inspect local web", "as docker inspect web"],
      ["docklens inspect local web -f '{{.State.Status}}'"],
      ["docklens inspect web job -f '{{.State.ExitCode}}'", "with one cluster, as docker's"],
      ["docklens inspect local web -f '{{range .Mounts}}{{.Source}} {{end}}'"],
      ["docklens inspect local web -f '{{index .Config.Labels \"app\"}}'"],
      ["docklens inspect local data --type volume"],
    ],
    check: (_, options) =>
      options.type === undefined || TYPES.includes(options.type as Kind)
        ? undefined
        : `--type: expected ${TYPES.join(", ")}, got ${JSON.stringify(options.type)}`,
    call: async ([cluster, names], options, coreOptions): Promise<InspectResult> => {
      const kinds = options.type === undefined ? TYPES : [options.type as Kind];
      const found = await Promise.all(
        names.map(
          async (name) => [name, await findObject({ cluster, name }, kinds, coreOptions)] as const,
        ),
      );
      // The JSON (--json) is the array alone; the names not found make the command fail.
      return Object.assign(
        found.flatMap(([, object]) => (object ? [object] : [])),
        { missing: found.flatMap(([name, object]) => (object ? [] : [name])) },
      );
    },
    // docker prints what it found, then says what it did not find and fails.
    hooks: (_, options) => ({
      failure: (result): Failure | undefined =>
        result.missing?.length
          ? {
              code: "CONTAINER_NOT_FOUND",
              message: result.missing
                .map((name) => `no such ${options.type ?? "object"}: ${name}`)
                .join("\n"),
            }
          : undefined,
    }),
  }),
};
