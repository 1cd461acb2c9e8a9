/**
 * docklens: read-only inspection of many Docker engines. This entry is the core library that
 * the CLI and `docklens serve` are built on; it never prints, reads argv or exits.
 */
export { listClusters, inspectCluster } from "./core/clusters.ts";
export type { ClusterRecord, DockerInfo, InspectClusterResult, ListClustersResult } from "./core/clusters.ts";
export { loadConfig, DEFAULT_TIMEOUT_MS } from "./core/config.ts";
export type { ClusterConfig, DocklensConfig, LoadConfigOptions } from "./core/config.ts";
export { normalizeConfig } from "./core/config-schema.ts";
export type { DocklensConfigInput } from "./core/config-schema.ts";
export { listContainers, inspectContainer, redactEnv } from "./core/containers.ts";
export type { ContainerItem, InspectContainerInput, InspectContainerOptions, InspectContainerResult, ListContainersResult } from "./core/containers.ts";
export { DocklensError, isDocklensError } from "./core/errors.ts";
export type { ErrorBody, ErrorCode } from "./core/errors.ts";
export { listNetworks } from "./core/networks.ts";
export type { ListNetworksResult } from "./core/networks.ts";
export { createRegistry, loadRegistry, resolveCluster } from "./core/registry.ts";
export type { CoreOptions, Registry } from "./core/registry.ts";
export { listDetailRoutes, DETAIL_ROUTES } from "./core/routes.ts";
export type { ListDetailRoutesResult, RouteInfo } from "./core/routes.ts";
export { listVolumes } from "./core/volumes.ts";
export type { ListVolumesResult, VolumeItem } from "./core/volumes.ts";
