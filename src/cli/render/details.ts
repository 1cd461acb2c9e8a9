// `docklens detail`: what the engine knows of one container, image, volume or network.
import type { ChalkInstance } from "chalk";
import type { InspectContainerResult } from "../../core/containers/containers.ts";
import type { NetworkItem } from "../../core/objects/engine-types.ts";
import type { InspectImageResult } from "../../core/objects/images.ts";
import type { VolumeItem } from "../../core/objects/volumes.ts";
import { formatLabels, humanSize, renderFields, shortId, timeAgo } from "./format.ts";
import { colorState } from "./containers.ts";
import { formatPorts, type PortItem } from "./ports.ts";

/** `docklens detail container`: what `docker inspect` says, in the order an operator reads it. */
export function containerDetail(
  detail: InspectContainerResult,
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const state = detail.State;
  const networks = Object.entries(detail.NetworkSettings?.Networks ?? {}).map(
    ([name, net]) =>
      `${name}: ${net.IPAddress || "no address"}${net.MacAddress ? ` (${net.MacAddress})` : ""}`,
  );
  return renderFields(
    [
      ["Name", detail.Name.replace(/^\//, "")],
      ["Id", detail.Id],
      ["Image", `${detail.Config?.Image ?? ""} (${shortId(detail.Image)})`],
      [
        "Command",
        [detail.Path, ...(detail.Args ?? [])]
          .map((part) => (/\s/.test(part) ? JSON.stringify(part) : part))
          .join(" "),
      ],
      ["Created", `${detail.Created} (${timeAgo(detail.Created, now)})`],
      ["State", colorState(state.Status, stateText(state, now), colors, state.ExitCode)],
      ["Health", healthText(state.Health)],
      ["Error", state.Error || undefined],
      ["OOM killed", state.OOMKilled ? colors.red("yes") : undefined],
      ["Restart", detail.HostConfig?.RestartPolicy?.Name || undefined],
      ["Networks", networks.join("\n") || undefined],
      ["Ports", formatPorts(containerPorts(detail)) || undefined],
      [
        "Mounts",
        (detail.Mounts ?? [])
          .map(
            (mount) =>
              `${mount.Name ?? mount.Source} → ${mount.Destination}${mount.RW ? "" : " (ro)"}`,
          )
          .join("\n") || undefined,
      ],
      [
        "Labels",
        Object.entries(detail.Config?.Labels ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join("\n") || undefined,
      ],
      ["Env", (detail.Config?.Env ?? []).join("\n") || undefined],
    ],
    colors,
  );
}

type ContainerState = InspectContainerResult["State"] & {
  Health?: {
    Status: string;
    FailingStreak?: number;
    Log?: Array<{ ExitCode: number; Output: string }> | null;
  };
};

/**
 * The state as `docker ps` words it: `Up 3 minutes (unhealthy)`, `Up 17 minutes (Paused)`,
 * `Exited (3) 2 hours ago`.
 */
function stateText(state: ContainerState, now: number): string {
  if (state.Running) {
    const health =
      state.Health?.Status === "starting"
        ? " (health: starting)"
        : state.Health?.Status && state.Health.Status !== "none"
          ? ` (${state.Health.Status})`
          : "";
    return `Up ${timeAgo(state.StartedAt, now).replace(/ ago$/, "")}${state.Paused ? " (Paused)" : health}`;
  }
  if (state.Status === "exited")
    return `Exited (${state.ExitCode}) ${timeAgo(state.FinishedAt, now)}`;
  return state.Status.charAt(0).toUpperCase() + state.Status.slice(1);
}

/** Health as `docker inspect` holds it: the status, the failing streak, and the last probe's output on failure. */
function healthText(health: ContainerState["Health"]): string | undefined {
  if (!health?.Status || health.Status === "none") return undefined;
  const last = health.Log?.at(-1);
  const streak = health.FailingStreak
    ? `, ${health.FailingStreak} failing probe${health.FailingStreak === 1 ? "" : "s"} in a row`
    : "";
  // The output comes escaped, as all engine data to a view: its last newline reads `\n`.
  const output = last?.Output.replace(/^(\s|\\[nrt])+|(\s|\\[nrt])+$/g, "") ?? "";
  const probe =
    last && last.ExitCode !== 0
      ? `\nlast probe: exit ${last.ExitCode}${output ? `: ${output.slice(0, 400)}` : ""}`
      : "";
  return `${health.Status}${streak}${probe}`;
}

/** Published ports from `NetworkSettings.Ports`, and exposed ones that are not published. */
function containerPorts(detail: InspectContainerResult): PortItem[] {
  const published =
    (
      detail.NetworkSettings as
        { Ports?: Record<string, Array<{ HostIp: string; HostPort: string }> | null> } | undefined
    )?.Ports ?? {};
  const keys = new Set([
    ...Object.keys(published),
    ...Object.keys(detail.Config?.ExposedPorts ?? {}),
  ]);
  return [...keys].flatMap((key) => {
    const [port, type = "tcp"] = key.split("/");
    const item = { PrivatePort: Number(port), Type: type };
    const bindings = published[key] ?? [];
    return bindings.length
      ? bindings.map((binding) => ({
          ...item,
          IP: binding.HostIp,
          PublicPort: Number(binding.HostPort),
        }))
      : [item];
  });
}

/** `docklens detail image`: what `docker image inspect` says, in brief. */
export function imageDetail(
  image: InspectImageResult,
  colors: ChalkInstance,
  now = Date.now(),
): string {
  const config = image.Config ?? {};
  return renderFields(
    [
      ["Id", image.Id],
      ["Tags", (image.RepoTags ?? []).join(", ") || "<none>"],
      ["Created", image.Created && `${image.Created} (${timeAgo(image.Created, now)})`],
      ["Size", humanSize(image.Size, 3)],
      ["Platform", `${image.Os}/${image.Architecture}`],
      ["Entrypoint", config.Entrypoint ? [config.Entrypoint].flat().join(" ") : undefined],
      ["Command", config.Cmd ? [config.Cmd].flat().join(" ") : undefined],
      ["Env", (config.Env ?? []).join("\n") || undefined],
      ["Labels", formatLabels(config.Labels ?? {}, "\n") || undefined],
    ],
    colors,
  );
}

/** `docklens detail volume`. */
export function volumeDetail(volume: VolumeItem, colors: ChalkInstance, now = Date.now()): string {
  return renderFields(
    [
      ["Name", volume.Name],
      ["Driver", volume.Driver],
      ["Scope", volume.Scope],
      ["Mountpoint", volume.Mountpoint],
      [
        "Created",
        volume.CreatedAt ? `${volume.CreatedAt} (${timeAgo(volume.CreatedAt, now)})` : undefined,
      ],
      ["Options", formatLabels(volume.Options ?? {}, "\n") || undefined],
      ["Labels", formatLabels(volume.Labels, "\n") || undefined],
    ],
    colors,
  );
}

/** `docklens detail network`. */
export function networkDetail(network: NetworkItem, colors: ChalkInstance): string {
  const containers = Object.values(network.Containers ?? {}).map(
    (endpoint) => `${endpoint.Name}: ${endpoint.IPv4Address || "no address"}`,
  );
  return renderFields(
    [
      ["Name", network.Name],
      ["Id", network.Id],
      ["Driver", `${network.Driver} (${network.Scope})`],
      [
        "Subnets",
        (network.IPAM?.Config ?? [])
          .map((config) => `${config.Subnet}${config.Gateway ? ` via ${config.Gateway}` : ""}`)
          .join("\n") || undefined,
      ],
      [
        "Flags",
        [
          network.Internal && "internal",
          network.Attachable && "attachable",
          network.Ingress && "ingress",
          network.EnableIPv6 && "IPv6",
        ]
          .filter(Boolean)
          .join(", ") || undefined,
      ],
      ["Containers", containers.join("\n") || undefined],
      ["Options", formatLabels(network.Options ?? {}, "\n") || undefined],
      ["Labels", formatLabels(network.Labels ?? {}, "\n") || undefined],
    ],
    colors,
  );
}
