import { docker } from "./helpers.ts";

/**
 * More events on the engine at `host` than the 256 it keeps (moby: daemon/events,
 * `eventsLimit`): `pairs` volumes labelled `label` made and removed, two events each, ten at a
 * time (a few seconds for 150).
 */
export async function floodEvents(host: string, label: string, pairs = 150): Promise<void> {
  const names = Array.from({ length: pairs }, (_, index) => `flood-${process.pid}-${index}`);
  for (let at = 0; at < names.length; at += 10)
    await Promise.all(
      names.slice(at, at + 10).map(async (name) => {
        await docker(host, "volume", "create", "--label", label, name);
        await docker(host, "volume", "rm", name);
      }),
    );
}

/** Remove what {@link floodEvents} left behind (a run that failed half-way). */
export async function removeFlood(host: string, label: string): Promise<void> {
  const left = await docker(host, "volume", "ls", "-q", "--filter", `label=${label}`);
  if (left) await docker(host, "volume", "rm", ...left.split("\n"));
}
