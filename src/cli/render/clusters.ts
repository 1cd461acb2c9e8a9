// Clusters: the list, one cluster's detail, the config they came from, and drift between them.
import type { ChalkInstance } from "chalk";
import type { ClusterRecord, InspectClusterResult } from "../../core/clusters/clusters.ts";
import type { DescribeConfigResult } from "../../core/clusters/clusters.ts";
import type { ListDriftResult } from "../../core/objects/drift.ts";
import { bytesSize, formatHostPort, renderFields, renderTable, shortId } from "./format.ts";

/**
 * `docklens clusters`: one line per cluster with its engine version and state, and, when
 * `unhealthy` counts are given (by cluster id), how many of its containers are unhealthy.
 */
export function clustersTable(
  clusters: ClusterRecord[],
  colors: ChalkInstance,
  unhealthy?: Map<number, number>,
): string {
  const rows = clusters.map((cluster) => {
    const info = cluster.docker as {
      ServerVersion?: string;
      Containers?: number;
      ContainersRunning?: number;
      Images?: number;
      Volumes?: number;
    };
    return [
      String(cluster.id),
      cluster.fullname,
      formatHostPort(cluster.host, cluster.port),
      cluster.error ? colors.red(cluster.error.code) : colors.green("up"),
      info.ServerVersion ?? "",
      cluster.error ? "" : `${info.Containers ?? 0} (${info.ContainersRunning ?? 0} running)`,
      cluster.error ? "" : String(info.Images ?? 0),
      cluster.error ? "" : String(info.Volumes ?? 0),
      ...(unhealthy
        ? [cluster.error ? "" : unhealthyCount(unhealthy.get(cluster.id) ?? 0, colors)]
        : []),
    ];
  });
  const head = [
    "ID",
    "CLUSTER",
    "ENDPOINT",
    "STATE",
    "ENGINE",
    "CONTAINERS",
    "IMAGES",
    "VOLUMES",
    ...(unhealthy ? ["UNHEALTHY"] : []),
  ];
  // Why an engine failed goes to stderr, as every command across clusters says it.
  return renderTable(head, rows, colors);
}

function unhealthyCount(count: number, colors: ChalkInstance): string {
  return count ? colors.red(String(count)) : "0";
}

/** `docklens detail cluster`: the cluster record and the essentials of its engine. */
export function clusterDetail(result: InspectClusterResult, colors: ChalkInstance): string {
  const { cluster, error } = result;
  const info = result.docker as Record<string, string | number | undefined>;
  return renderFields(
    [
      ["Cluster", `${cluster.fullname} (id ${cluster.id})`],
      ["Endpoint", `${cluster.protocol}://${formatHostPort(cluster.host, cluster.port)}`],
      ["TLS", cluster.tls ? "yes" : "no"],
      [
        "Source",
        cluster.context ? `${cluster.source} (docker context ${cluster.context})` : cluster.source,
      ],
      // The message goes to stderr, where every failing command says why.
      ["State", error ? colors.red(error.code) : colors.green("up")],
      ["Engine", result.engine && `${result.engine.name} ${result.engine.version}`],
      [
        "OS",
        info.OperatingSystem === undefined
          ? undefined
          : `${info.OperatingSystem} (${info.OSType}/${info.Architecture}, kernel ${info.KernelVersion})`,
      ],
      ["CPUs", info.NCPU === undefined ? undefined : String(info.NCPU)],
      ["Memory", bytesSize(info.MemTotal as number | undefined)],
      [
        "Containers",
        info.Containers === undefined
          ? undefined
          : `${info.Containers} (${info.ContainersRunning} running, ` +
            `${info.ContainersPaused} paused, ${info.ContainersStopped} stopped)`,
      ],
      ["Images", info.Images === undefined ? undefined : String(info.Images)],
      ["Volumes", info.Volumes === undefined ? undefined : String(info.Volumes)],
      ["Storage", info.Driver === undefined ? undefined : String(info.Driver)],
      ["Host name", info.Name === undefined ? undefined : String(info.Name)],
    ],
    colors,
  );
}

/**
 * `docklens config`: the config file used (or why none), every cluster with its source, the
 * scoped tokens of `serve` with the cluster globs each sees, and the alert rules and receivers
 * (where each sends, described, never in clear).
 */
export function configView(result: DescribeConfigResult, colors: ChalkInstance): string {
  const file =
    result.file ??
    `none: ${result.reason ?? "no file"}; every engine found on this machine instead`;
  const rows = result.clusters.map((cluster) => [
    String(cluster.id),
    cluster.name,
    cluster.via ?? `${cluster.protocol}://${formatHostPort(cluster.host, cluster.port)}`,
    cluster.context ? `${cluster.source} ${cluster.context}` : cluster.source,
  ]);
  const tokens = result.tokens.map((token) => [token.name, token.clusters.join(",")]);
  const rules = (result.alerts?.rules ?? []).map((rule) => [
    rule.name,
    rule.when,
    rule.clusters.join(",") || "every",
    rule.notify.join(","),
  ]);
  const receivers = (result.alerts?.receivers ?? []).map((receiver) => [
    receiver.name,
    receiver.kind,
    receiver.target,
  ]);
  // What was skipped is on stderr, as every command says it.
  return [
    `${colors.bold("Config")}  ${file}`,
    "",
    renderTable(["ID", "CLUSTER", "ENDPOINT", "SOURCE"], rows, colors),
    ...(tokens.length ? ["", renderTable(["TOKEN", "CLUSTERS"], tokens, colors)] : []),
    ...(rules.length
      ? ["", renderTable(["ALERT RULE", "WHEN", "CLUSTERS", "NOTIFY"], rules, colors)]
      : []),
    ...(receivers.length
      ? ["", renderTable(["RECEIVER", "KIND", "TARGET"], receivers, colors)]
      : []),
  ].join("\n");
}

/**
 * `docklens drift`: each shared reference, the image it is on each cluster, drift in red (or a
 * line saying that no reference differs); then the engines' versions.
 */
export function driftView(result: ListDriftResult, colors: ChalkInstance): string {
  const rows = result.images.flatMap((image) =>
    image.clusters.map((entry, index) => [
      index ? "" : image.reference,
      entry.cluster.name,
      entry.imageIds.map(shortId).join(","),
      index ? "" : image.drift ? colors.red("drift") : colors.green("same"),
    ]),
  );
  const versions = new Set(result.engines.map((engine) => engine.version));
  const engines = result.engines.map((engine) => [
    engine.cluster.name,
    versions.size > 1 ? colors.yellow(engine.version) : engine.version,
  ]);
  const shared = result.images.length;
  const none = result.images.some((image) => image.drift)
    ? []
    : [
        shared === 1
          ? "No reference differs: the one used on several clusters is the same image on each."
          : shared
            ? `No reference differs: all ${shared} used on several clusters are the same image on each.`
            : "No reference differs: no image reference is used on more than one cluster.",
      ];
  return [
    ...(rows.length
      ? [renderTable(["REFERENCE", "CLUSTER", "IMAGE ID", "STATE"], rows, colors)]
      : []),
    ...none,
    "",
    renderTable(["CLUSTER", "ENGINE"], engines, colors),
  ].join("\n");
}
