// Docker's filter keys of each list, by name only and without imports: the CLI's help names
// them, and loading this costs `docklens --help` nothing. engine/filters.ts gives each its
// values, and its type takes exactly these keys.

/** The lists that take docker's filters. */
export type FilterKind = "containers" | "images" | "volumes" | "networks" | "events";

/** The keys of each list: the `common` ones first, as the help names them, then the `rare`. */
export const FILTER_KEY_NAMES = {
  containers: {
    common: [
      "name",
      "label",
      "status",
      "health",
      "ancestor",
      "network",
      "volume",
      "publish",
      "expose",
      "exited",
      "id",
    ],
    rare: ["before", "since", "isolation", "is-task"],
  },
  images: { common: ["reference", "label", "dangling", "before", "since", "until"], rare: [] },
  volumes: { common: ["name", "label", "driver", "dangling"], rare: [] },
  networks: { common: ["name", "label", "driver", "id", "scope", "type", "dangling"], rare: [] },
  events: {
    common: ["type", "event", "container", "image", "label", "network", "volume", "daemon"],
    rare: ["config", "node", "plugin", "scope", "secret", "service"],
  },
} as const satisfies Record<FilterKind, { common: readonly string[]; rare: readonly string[] }>;

/** A filter key of the list `kind`. */
export type FilterKey<K extends FilterKind> =
  (typeof FILTER_KEY_NAMES)[K]["common"][number] | (typeof FILTER_KEY_NAMES)[K]["rare"][number];

/** The keys of `kind` for a help text: the common ones, then `...` when there are others. */
export function filterKeysHelp(kind: FilterKind): string {
  const { common, rare } = FILTER_KEY_NAMES[kind];
  return [...common, ...(rare.length ? ["..."] : [])].join(", ");
}
