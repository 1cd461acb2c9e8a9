// The bodies that describe containers in lists: the engine's list item as docklens hands it on
// (core/containers/container-types.ts), and the lists of one cluster and across clusters.
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

/** A container's list item and the lists of them; its mounts and networks, which its inspect body has too. */
export const CONTAINER_SCHEMAS = {
  Mount: objOptional(
    {
      Type: str,
      Name: str,
      Source: str,
      Destination: str,
      Driver: str,
      Mode: str,
      RW: bool,
      Propagation: str,
    },
    ["Name", "Driver"],
  ),
  Endpoint: obj(
    {
      IPAMConfig: orNull(
        obj({ IPv4Address: str, IPv6Address: str, LinkLocalIPs: nullableStrings }, []),
      ),
      Links: nullableStrings,
      Aliases: nullableStrings,
      DNSNames: nullableStrings,
      NetworkID: str,
      EndpointID: str,
      Gateway: str,
      IPAddress: str,
      IPPrefixLen: int,
      IPv6Gateway: str,
      GlobalIPv6Address: str,
      GlobalIPv6PrefixLen: int,
      MacAddress: str,
      DriverOpts: orNull(stringMap),
    },
    [
      "NetworkID",
      "EndpointID",
      "Gateway",
      "IPAddress",
      "IPPrefixLen",
      "IPv6Gateway",
      "GlobalIPv6Address",
      "GlobalIPv6PrefixLen",
      "MacAddress",
    ],
  ),
  Container: objOptional(
    {
      Id: str,
      Names: arrayOf({ type: "string", pattern: "^/" }),
      Image: str,
      ImageID: str,
      Command: str,
      Created: { type: "string", format: "date-time" },
      Ports: arrayOf(
        obj({ PrivatePort: int, Type: str, PublicPort: int, IP: str }, ["PrivatePort", "Type"]),
      ),
      Labels: stringMap,
      State: str,
      Status: str,
      HostConfig: obj({ NetworkMode: str }),
      NetworkSettings: obj({ Networks: mapOf(ref("Endpoint")) }),
      Mounts: arrayOf(ref("Mount")),
      SizeRw: { type: "integer", description: "With the size query parameter only" },
      SizeRootFs: { type: "integer", description: "With the size query parameter only" },
    },
    ["SizeRw", "SizeRootFs"],
  ),
  ContainerList: obj({ containers: arrayOf(ref("Container")), running: arrayOf(ref("Container")) }),
  AllContainerList: closed({
    containers: arrayOf(inCluster("Container")),
    running: arrayOf(inCluster("Container")),
    errors: arrayOf(ref("ClusterError")),
  }),
} as const satisfies Record<string, Schema>;
