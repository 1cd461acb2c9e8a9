// `docklens inspect`: what docker inspect prints, a JSON array of the bodies or a template a body.
import { toJsonText } from "../../core/json.ts";
import { escapeControls } from "./escape.ts";
import { FUNCTIONS } from "./formatted.ts";
import { parseTemplate } from "./template-parse.ts";
import { isNil, nilOf } from "./template-print.ts";
import { executeTemplate, type TemplateData, type TemplateValue } from "./template-run.ts";

/**
 * The engine's fields that are Go slices or maps in docker's structs: docker runs a template on
 * those structs first, where `null` prints as `[]` or `map[]`; any other `null` is a nil pointer
 * (`<nil>`).
 */
const SLICES = new Set(
  [
    "Aliases Binds BlkioDeviceReadBps BlkioDeviceReadIOps BlkioDeviceWriteBps",
    "BlkioDeviceWriteIOps BlkioWeightDevice CapAdd CapDrop Cmd DNSNames DeviceCgroupRules",
    "DeviceRequests Devices Dns DnsOptions DnsSearch Entrypoint Env ExecIDs ExtraHosts GroupAdd",
    "Links MaskedPaths Mounts OnBuild ReadonlyPaths RepoDigests RepoTags SecondaryIPAddresses",
    "SecondaryIPv6Addresses SecurityOpt Shell Ulimits VolumesFrom",
  ]
    .join(" ")
    .split(" "),
);
const MAPS = new Set(
  "DriverOpts ExposedPorts Labels Options PortBindings Ports StorageOpt Sysctls Tmpfs Volumes".split(
    " ",
  ),
);
/** Pointers docker's structs have that the engine leaves out when nil: `{{if .State.Health}}`. */
const OMITTED: Record<string, string[]> = { State: ["Health"], Config: ["Healthcheck"] };

/** A body as docker's structs see it: each `null` as the nil of its field's Go type. */
function typed(value: unknown, key = ""): TemplateValue {
  if (value === null || value === undefined)
    return SLICES.has(key) ? nilOf("slice") : MAPS.has(key) ? nilOf("map") : null;
  if (Array.isArray(value)) return value.map((item) => typed(item));
  if (typeof value !== "object") return value as TemplateValue;
  const entries = Object.entries(value).map(([name, item]) => [name, typed(item, name)]);
  for (const name of OMITTED[key] ?? []) if (!(name in value)) entries.push([name, null]);
  return Object.fromEntries(entries) as TemplateData;
}

/** docker's `json`: the value as encoding/json writes it, in the engine's order, nil as `null`. */
function bodyJson(value: TemplateValue): string {
  const json = JSON.stringify(value, (_, item: unknown) => (isNil(item) ? null : item)) ?? "null";
  return json.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const INSPECT_FUNCTIONS = { ...FUNCTIONS, json: bodyJson };

/**
 * The bodies as docker inspect prints them: a JSON array indented by four spaces, `<`, `>` and `&`
 * escaped as Go's json.MarshalIndent writes them; with `format`, the template run on each body, a
 * line each. What is left of control characters (JSON leaves DEL and C1 ones, a template prints
 * values as they are) is escaped as everywhere else.
 */
export function inspectView(objects: object[], format?: string): string {
  if (format === undefined) {
    const json = toJsonText(objects, 4).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    return escapeControls(json, { keepLines: true });
  }
  const template = parseTemplate(format, INSPECT_FUNCTIONS, { type: "map[string]interface {}" });
  const lines = objects.map((object) =>
    executeTemplate(template, typed(object) as TemplateData, INSPECT_FUNCTIONS, { raw: true }),
  );
  return escapeControls(lines.join("\n"), { keepLines: true });
}
