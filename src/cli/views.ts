import type { ChalkInstance } from "chalk";
import type Dockerode from "dockerode";
import type { AttachLine, InspectClusterResult, InspectContainerResult, InspectImageResult, OutputLine, VolumeItem } from "../index.ts";
import { formatBytes, formatLabels, renderFields, shortId, timeAgo } from "./format.ts";
import { colorState } from "./tables.ts";

/** `docklens detail cluster`: the cluster record and the essentials of its engine. */
export function clusterDetail(result: InspectClusterResult, colors: ChalkInstance): string {
  const { cluster, error } = result;
  const info = result.docker as Record<string, string | number | undefined>;
  return renderFields(
    [
      ["Cluster", `${cluster.fullname} (id ${cluster.id})`],
      ["Endpoint", cluster.port ? `${cluster.protocol}://${cluster.host}:${cluster.port}` : `${cluster.protocol}://${cluster.host.replace(/^unix:\/\//, "")}`],
      ["TLS", cluster.tls ? "yes" : "no"],
      ["State", error ? colors.red(`${error.code}: ${error.message}`) : colors.green("up")],
      ["Engine", info.ServerVersion === undefined ? undefined : `Docker ${info.ServerVersion}`],
      ["OS", info.OperatingSystem === undefined ? undefined : `${info.OperatingSystem} (${info.OSType}/${info.Architecture}, kernel ${info.KernelVersion})`],
      ["CPUs", info.NCPU === undefined ? undefined : String(info.NCPU)],
      ["Memory", formatBytes(info.MemTotal as number | undefined)],
      ["Containers", info.Containers === undefined ? undefined : `${info.Containers} (${info.ContainersRunning} running, ${info.ContainersPaused} paused, ${info.ContainersStopped} stopped)`],
      ["Images", info.Images === undefined ? undefined : String(info.Images)],
      ["Volumes", info.Volumes === undefined ? undefined : String(info.Volumes)],
      ["Storage", info.Driver === undefined ? undefined : String(info.Driver)],
      ["Host name", info.Name === undefined ? undefined : String(info.Name)],
    ],
    colors,
  );
}

/** `docklens detail container`: what `docker inspect` says, in the order an operator reads it. */
export function containerDetail(detail: InspectContainerResult, colors: ChalkInstance, now = Date.now()): string {
  const state = detail.State;
  const networks = Object.entries(detail.NetworkSettings?.Networks ?? {}).map(([name, net]) => `${name}: ${net.IPAddress || "no address"}${net.MacAddress ? ` (${net.MacAddress})` : ""}`);
  const ports = Object.keys(detail.Config?.ExposedPorts ?? {});
  const stateText = state.Running
    ? `Up ${timeAgo(state.StartedAt, now).replace(/ ago$/, "")}`
    : state.Status === "exited"
      ? `Exited (${state.ExitCode}) ${timeAgo(state.FinishedAt, now)}`
      : state.Status.charAt(0).toUpperCase() + state.Status.slice(1);
  return renderFields(
    [
      ["Name", detail.Name.replace(/^\//, "")],
      ["Id", detail.Id],
      ["Image", `${detail.Config?.Image ?? ""} (${shortId(detail.Image)})`],
      ["Command", [detail.Path, ...(detail.Args ?? [])].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(" ")],
      ["Created", `${detail.Created} (${timeAgo(detail.Created, now)})`],
      ["State", colorState(state.Status, stateText, colors, state.ExitCode)],
      ["Error", state.Error || undefined],
      ["OOM killed", state.OOMKilled ? colors.red("yes") : undefined],
      ["Restart", detail.HostConfig?.RestartPolicy?.Name || undefined],
      ["Networks", networks.join("\n") || undefined],
      ["Ports", ports.join(", ") || undefined],
      ["Mounts", (detail.Mounts ?? []).map((mount) => `${mount.Name ?? mount.Source} → ${mount.Destination}${mount.RW ? "" : " (ro)"}`).join("\n") || undefined],
      ["Labels", Object.entries(detail.Config?.Labels ?? {}).map(([k, v]) => `${k}=${v}`).join("\n") || undefined],
      ["Env", (detail.Config?.Env ?? []).join("\n") || undefined],
    ],
    colors,
  );
}

/** `docklens detail image`: what `docker image inspect` says, in brief. */
export function imageDetail(image: InspectImageResult, colors: ChalkInstance, now = Date.now()): string {
  const config = image.Config ?? ({} as Partial<Dockerode.ImageInspectInfo["Config"]>);
  return renderFields(
    [
      ["Id", image.Id],
      ["Tags", (image.RepoTags ?? []).join(", ") || "<none>"],
      ["Created", `${image.Created} (${timeAgo(image.Created, now)})`],
      ["Size", formatBytes(image.Size)],
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
      ["Created", volume.CreatedAt ? `${volume.CreatedAt} (${timeAgo(volume.CreatedAt, now)})` : undefined],
      ["Options", formatLabels(volume.Options ?? {}, "\n") || undefined],
      ["Labels", formatLabels(volume.Labels, "\n") || undefined],
    ],
    colors,
  );
}

/** `docklens detail network`. */
export function networkDetail(network: Dockerode.NetworkInspectInfo, colors: ChalkInstance): string {
  const containers = Object.values(network.Containers ?? {}).map((endpoint) => `${endpoint.Name}: ${endpoint.IPv4Address || "no address"}`);
  return renderFields(
    [
      ["Name", network.Name],
      ["Id", network.Id],
      ["Driver", `${network.Driver} (${network.Scope})`],
      ["Subnets", (network.IPAM?.Config ?? []).map((config) => `${config.Subnet}${config.Gateway ? ` via ${config.Gateway}` : ""}`).join("\n") || undefined],
      ["Flags", [network.Internal && "internal", network.Attachable && "attachable", network.Ingress && "ingress", network.EnableIPv6 && "IPv6"].filter(Boolean).join(", ") || undefined],
      ["Containers", containers.join("\n") || undefined],
      ["Options", formatLabels(network.Options ?? {}, "\n") || undefined],
      ["Labels", formatLabels(network.Labels ?? {}, "\n") || undefined],
    ],
    colors,
  );
}

/** A line of logs or attach output: its time when asked for; stderr lines marked, red on a TTY. */
export function outputLine(line: OutputLine | AttachLine, colors: ChalkInstance): string {
  const time = "time" in line && line.time ? `${colors.dim(line.time)} ` : "";
  return line.stream === "stderr" ? `${time}${colors.red(`[stderr] ${line.text}`)}` : `${time}${line.text}`;
}
