// The selection of the Logs and Stats views: the containers view's own filters, under the same
// query keys, so that "logs of these" is the containers view's link with another route name.
// The server applies it (docs/http-interface.md, "Selections"): the page never filters lines.
import { NO_FILTERS, type ContainerFilters } from "./containers-model.ts";

/**
 * The containers view's filters, as the URL holds them ('' for none); its search `q` is sent as
 * docker's `name` filter, matched by the engines against container names.
 */
export type Selection = ContainerFilters;

/** No filter: every container of every cluster. */
export const NO_SELECTION: Readonly<Selection> = NO_FILTERS;

/** The selection as a route's query: only its set keys. */
export function selectionQuery(selection: Selection): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of Object.keys(NO_SELECTION) as Array<keyof Selection>)
    if (selection[key]) query[key] = selection[key];
  return query;
}

/** The selection as `/logs` and `/stats` take it: `cluster`, `project` and docker's filters. */
export function serverSelection(selection: Selection): Record<string, string | string[]> {
  const filter = [
    selection.q && `name=${selection.q}`,
    selection.status && `status=${selection.status}`,
    selection.health && `health=${selection.health}`,
    selection.label && `label=${selection.label}`,
  ].filter(Boolean);
  const query: Record<string, string | string[]> = {};
  // The containers view's cluster filter may name several, comma-separated.
  const clusters = selection.cluster.split(",").filter(Boolean);
  if (clusters.length) query.cluster = clusters;
  if (selection.project) query.project = selection.project;
  if (filter.length) query.filter = filter;
  return query;
}

/** True when no control chooses anything: the view opens on a default of its own. */
export const isNoSelection = (selection: Selection): boolean =>
  Object.keys(NO_SELECTION).every((key) => !selection[key as keyof Selection]);

/**
 * The Logs view's default, which opens on something whatever the fleet's size: the running
 * containers, cut by the server to its newest up to its bound (`newest`), where a selection
 * someone made that holds more is refused.
 */
export const NEWEST_RUNNING = { filter: "status=running", newest: "true" } as const;

/** The server's words when a selection holds more containers than it reads at once. */
export const isSelectionBound = (message: string): boolean =>
  /selection matches \d+ containers/.test(message);

/** The selection in a few words, for the summary above its controls. */
export function describeSelection(selection: Selection): string {
  const parts = [
    selection.q && `name ~ ${selection.q}`,
    selection.cluster && `cluster ${selection.cluster}`,
    selection.project && `project ${selection.project}`,
    selection.status && `status ${selection.status}`,
    selection.health && `health ${selection.health}`,
    selection.label && `label ${selection.label}`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "every container";
}
