import type Dockerode from "dockerode";
import { inspectObject } from "./objects.ts";
import type { CoreOptions, ItemRef } from "./registry.ts";

/** Body of `/detail/:cluster/image/:imageName`: the engine's image inspect body (D8). */
export type InspectImageResult = Dockerode.ImageInspectInfo;

/**
 * The engine's inspect body of one image (D8), by reference (`local/busybox:1`) or id
 * (`sha256:…`, or a prefix); throws `IMAGE_NOT_FOUND` for an unknown one.
 */
export async function inspectImage(input: ItemRef, options: CoreOptions): Promise<InspectImageResult> {
  return (await inspectObject("image", input, options)) as InspectImageResult;
}
