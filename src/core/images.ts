import type Dockerode from "dockerode";
import { callEngine, expectBody, withSignal } from "./engine.ts";
import { checkImageReference } from "./names.ts";
import { resolveCluster, type CoreOptions } from "./registry.ts";

/** Input of {@link inspectImage}. */
export interface InspectImageInput {
  /** Cluster id or name (D1). */
  cluster: string;
  /** Image reference (`local/busybox:1`) or id (`sha256:…`, or a prefix). */
  name: string;
}

/** Body of `/detail/:cluster/image/:imageName`: the engine's image inspect body (D8). */
export type InspectImageResult = Dockerode.ImageInspectInfo;

/** The engine's inspect body of one image (D8); throws `IMAGE_NOT_FOUND` for an unknown one. */
export async function inspectImage(input: InspectImageInput, options: CoreOptions): Promise<InspectImageResult> {
  const cluster = resolveCluster(input.cluster, options);
  const reference = checkImageReference(input.name);
  const body = await callEngine(cluster, (docker, signal) => withSignal(docker.getImage(reference), "inspect", signal), {
    ...options,
    read: `image:${reference}`,
    statuses: { 404: { code: "IMAGE_NOT_FOUND", message: `image ${JSON.stringify(input.name)} not found in cluster "${cluster.name}"` } },
  });
  return expectBody<InspectImageResult>(body, "object", cluster);
}
