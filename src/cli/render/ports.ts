// The PORTS column, as docker ps words it.
import { compareStrings } from "../../core/compare.ts";
import type { Port } from "../../core/containers/container-types.ts";

/** A port as the container list shows it; container detail's ports are turned into these. */
export type PortItem = Pick<Port, "PrivatePort" | "Type"> & {
  IP?: string;
  PublicPort?: number;
};

/**
 * Ports as `docker ps` prints them, by the docker CLI's own rules (`DisplayablePorts`), so the
 * column reads the same as docker's and never changes between runs (the engine lists ports in no
 * stable order): sorted by private port, host address, public port and protocol; runs of
 * consecutive ports as ranges (`8000-8002/tcp`); ports published elsewhere than their own number
 * (`127.0.0.1:18080->8080/tcp`) last.
 */
export function formatPorts(ports: PortItem[]): string {
  const unique = [
    ...new Map(
      ports.map((port) => [`${port.IP}|${port.PrivatePort}|${port.PublicPort}|${port.Type}`, port]),
    ).values(),
  ];
  const sorted = unique.sort(
    (a, b) =>
      a.PrivatePort - b.PrivatePort ||
      compareStrings(a.IP ?? "", b.IP ?? "") ||
      (a.PublicPort ?? 0) - (b.PublicPort ?? 0) ||
      compareStrings(a.Type, b.Type),
  );
  const groups = new Map<string, { first: number; last: number }>();
  const ranges: string[] = [];
  const mappings: string[] = [];
  const range = (key: string, { first, last }: { first: number; last: number }) => {
    const [ip, type] = key.includes("/") ? (key.split("/") as [string, string]) : ["", key];
    const span = first === last ? `${first}` : `${first}-${last}`;
    return `${ip ? `${ip}:${span}->${span}` : span}/${type}`;
  };
  for (const port of sorted) {
    if (port.IP && port.PublicPort !== port.PrivatePort) {
      const host = port.IP.includes(":") ? `[${port.IP}]` : port.IP;
      mappings.push(`${host}:${port.PublicPort}->${port.PrivatePort}/${port.Type}`);
      continue;
    }
    const key = port.IP ? `${port.IP}/${port.Type}` : port.Type;
    const group = groups.get(key);
    if (!group) groups.set(key, { first: port.PrivatePort, last: port.PrivatePort });
    else if (port.PrivatePort === group.last + 1) group.last = port.PrivatePort;
    else {
      // A gap ends the run; the group keeps its place, in the order the groups began, as docker's does.
      ranges.push(range(key, group));
      Object.assign(group, { first: port.PrivatePort, last: port.PrivatePort });
    }
  }
  return [...ranges, ...[...groups].map(([key, group]) => range(key, group)), ...mappings].join(
    ", ",
  );
}
