// The clusters this page saw last, kept in localStorage: the next visit reads each cluster on its
// own, at once, and draws each as it answers, instead of waiting for a read across clusters that
// lasts as long as the slowest engine (a hung one: its whole time limit). The server's list
// (read beside it) then says which clusters are new or gone.
import type { ClusterRef } from "./types.ts";

// Per page address: two servers behind one host under different paths have their own fleets.
const KEY = `docklens.clusters:${location.pathname}`;

/** The clusters remembered from the last visit, in the server's order; empty on a first visit. */
export function knownClusters(): ClusterRef[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    if (!Array.isArray(value)) return [];
    const isRef = (one: Partial<ClusterRef> | null): one is ClusterRef =>
      typeof one?.id === "number" && typeof one.name === "string";
    return (value as Array<Partial<ClusterRef> | null>)
      .filter(isRef)
      .map(({ id, name }) => ({ id, name }));
  } catch {
    // Storage refused or its value mangled: a first visit.
    return [];
  }
}

/** Remember `clusters` (ids and names only, in their order) for the next visit. */
export function rememberClusters(clusters: readonly ClusterRef[]): void {
  const list = clusters.map(({ id, name }) => ({ id, name }));
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // Storage refused: the next visit is a first one.
  }
}

/** Forget the clusters: another token may see others. */
export function forgetClusters(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Storage refused: there was nothing kept.
  }
}
