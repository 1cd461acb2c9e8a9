// Everything that renders results for people, in one module: the runner loads it only without
// --json, so that pipelines never pay for tables and colours.
export { createColors } from "./format.ts";
export { escapeControls, escapeStrings } from "./escape.ts";
export * from "./clusters.ts";
export * from "./containers.ts";
export * from "./details.ts";
export * from "./inspect.ts";
export * from "./lists.ts";
export * from "./streams.ts";
export * from "./selection.ts";
export * from "./alerts.ts";
export * from "./history.ts";
export * from "./system.ts";
