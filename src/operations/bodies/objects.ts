// The bodies that describe images, networks and volumes: the engine's bodies as docklens hands
// them on, and the image lists and drift across clusters.
import {
  arrayOf,
  bool,
  closed,
  inCluster,
  int,
  nullable,
  obj,
  ref,
  str,
  stringMap,
  type Schema,
} from "../schema.ts";

/** Images, networks and volumes: items, details, lists. */
export const OBJECT_SCHEMAS = {
  Image: obj(
    {
      Id: str,
      ParentId: str,
      RepoTags: nullable("array"),
      RepoDigests: nullable("array"),
      Created: { type: "string", format: "date-time" },
      Size: int,
      SharedSize: int,
      Labels: nullable("object"),
      Containers: {
        type: "integer",
        minimum: 0,
        description: "Containers that use it, counted by docklens",
      },
    },
    ["Id", "Created", "Size", "Containers"],
  ),
  ImageList: closed({ images: arrayOf(ref("Image")) }),
  ImageDetail: obj(
    { Id: str, RepoTags: nullable("array"), Created: str, Size: int, Config: nullable("object") },
    ["Id"],
  ),
  AllImageList: closed({
    images: arrayOf(inCluster("Image")),
    errors: arrayOf(ref("ClusterError")),
  }),
  Drift: closed({
    images: arrayOf(
      closed({
        reference: str,
        clusters: arrayOf(closed({ cluster: ref("ClusterRef"), imageIds: arrayOf(str) })),
        drift: bool,
      }),
    ),
    engines: arrayOf(closed({ cluster: ref("ClusterRef"), version: str })),
    errors: arrayOf(ref("ClusterError")),
  }),
  Network: obj({
    Name: str,
    Id: str,
    Created: { type: "string", format: "date-time" },
    Scope: str,
    Driver: str,
    EnableIPv6: bool,
    IPAM: obj(
      {
        Driver: str,
        Options: nullable("object"),
        Config: { type: ["array", "null"], items: obj({ Subnet: str, Gateway: str }, []) },
      },
      ["Driver"],
    ),
    Internal: bool,
    Attachable: bool,
    Ingress: bool,
    ConfigFrom: obj({ Network: str }),
    ConfigOnly: bool,
    Containers: { type: "object" },
    Options: stringMap,
    Labels: stringMap,
  }),
  NetworkList: obj({ networks: arrayOf(ref("Network")) }),
  Volume: obj(
    {
      CreatedAt: { type: "string", format: "date-time" },
      Driver: str,
      Labels: stringMap,
      Mountpoint: str,
      Name: str,
      Options: { type: ["object", "null"], additionalProperties: { type: "string" } },
      Scope: str,
    },
    ["Driver", "Labels", "Mountpoint", "Name", "Options", "Scope"],
  ),
  VolumeList: closed({ Volumes: arrayOf(ref("Volume")) }),
} as const satisfies Record<string, Schema>;
