// The bodies that describe images, networks and volumes: the engine's bodies as docklens hands
// them on, and the image lists and drift across clusters.
import {
  arrayOf,
  bool,
  closed,
  inCluster,
  int,
  mapOf,
  nullableStrings,
  obj,
  objOptional,
  orNull,
  ref,
  str,
  stringMap,
  type Schema,
} from "../schema.ts";
import { START_CONFIG } from "./container-detail.ts";

/** What a container of an image starts with: each property may be absent. */
const imageConfig = obj({ ...START_CONFIG, Shell: nullableStrings }, []);

/** Images, networks and volumes: items, details, lists. */
export const OBJECT_SCHEMAS = {
  Image: objOptional(
    {
      Id: str,
      ParentId: str,
      RepoTags: nullableStrings,
      RepoDigests: nullableStrings,
      Created: { type: "string", format: "date-time" },
      Size: int,
      SharedSize: { type: "integer", description: "-1 when the engine did not count it" },
      VirtualSize: { type: "integer", description: "Engines before API 1.44 only" },
      Labels: orNull(stringMap),
      Containers: {
        type: "integer",
        minimum: 0,
        description: "Containers that use it, counted by docklens",
      },
    },
    ["VirtualSize"],
  ),
  ImageList: closed({ images: arrayOf(ref("Image")) }),
  ImageDetail: objOptional(
    {
      Id: str,
      RepoTags: nullableStrings,
      RepoDigests: nullableStrings,
      Parent: str,
      Comment: str,
      Created: str,
      DockerVersion: str,
      Author: str,
      Config: orNull(imageConfig),
      Architecture: str,
      Variant: str,
      Os: str,
      OsVersion: str,
      Size: int,
      VirtualSize: int,
      GraphDriver: obj({ Name: str, Data: orNull(stringMap) }),
      RootFS: objOptional({ Type: str, Layers: arrayOf(str) }, ["Layers"]),
      Metadata: obj({ LastTagTime: str }, []),
    },
    [
      "Parent",
      "Comment",
      "Created",
      "DockerVersion",
      "Author",
      "Variant",
      "OsVersion",
      "VirtualSize",
      "GraphDriver",
      "RootFS",
      "Metadata",
    ],
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
  Network: objOptional(
    {
      Name: str,
      Id: str,
      Created: { type: "string", format: "date-time" },
      Scope: str,
      Driver: str,
      EnableIPv4: bool,
      EnableIPv6: bool,
      IPAM: obj({
        Driver: str,
        Options: orNull(stringMap),
        Config: orNull(
          arrayOf(
            obj(
              { Subnet: str, IPRange: str, Gateway: str, AuxiliaryAddresses: orNull(stringMap) },
              [],
            ),
          ),
        ),
      }),
      Internal: bool,
      Attachable: bool,
      Ingress: bool,
      ConfigFrom: obj({ Network: str }),
      ConfigOnly: bool,
      Containers: {
        ...mapOf(
          obj({ Name: str, EndpointID: str, MacAddress: str, IPv4Address: str, IPv6Address: str }),
        ),
        description: "By container id: empty in the list, filled in in the detail",
      },
      Options: stringMap,
      Labels: stringMap,
    },
    ["EnableIPv4"],
  ),
  NetworkList: obj({ networks: arrayOf(ref("Network")) }),
  Volume: obj(
    {
      CreatedAt: { type: "string", format: "date-time" },
      Driver: str,
      Labels: stringMap,
      Mountpoint: str,
      Name: str,
      Options: orNull(stringMap),
      Scope: str,
      Status: orNull({ type: "object" }),
      UsageData: orNull(obj({ Size: int, RefCount: int })),
    },
    ["Driver", "Labels", "Mountpoint", "Name", "Options", "Scope"],
  ),
  VolumeList: closed({ Volumes: arrayOf(ref("Volume")) }),
} as const satisfies Record<string, Schema>;
