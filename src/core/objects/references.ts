// Image references as the docker CLI reads and shows them: the rules of the Go package
// github.com/distribution/reference (ParseNormalizedNamed, FamiliarString, TagNameOnly), which
// `docker ps` and `docker images` use. Docker's engine lists references as they were typed
// (`local/app:1`) or familiar already; Podman lists them in full (`docker.io/local/app:1`).

const DEFAULT_DOMAIN = "docker.io";
const LEGACY_DOMAIN = "index.docker.io";
const OFFICIAL = "library/";
/** The longest name (domain and path) a reference may have. */
const NAME_MAX = 255;

// The grammar of distribution/reference's regexp.go.
const ALPHANUMERIC = "[a-z0-9]+";
const SEPARATOR = "(?:[._]|__|[-]+)";
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const TAG = "[\\w][\\w.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
const REFERENCE = new RegExp(
  `^((?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`,
);
/** The digests go-digest accepts: a known algorithm and its length of lowercase hex. */
const KNOWN_DIGEST = /^(?:sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128})$/;

/** A reference in its normalised parts: `docker.io`, `library/busybox`, `1`, no digest. */
interface Reference {
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
}

/**
 * The normalised parts of a reference as ParseNormalizedNamed reads it (`busybox` is
 * docker.io's `library/busybox`); `undefined` where docker would refuse it, an image id among them.
 */
function parseNormalized(reference: string): Reference | undefined {
  if (/^[a-f0-9]{64}$/.test(reference)) return undefined;
  const [domain, remainder] = splitDomain(reference);
  const remote = remainder.split(":")[0]!;
  if (remote.toLowerCase() !== remote) return undefined;
  const match = REFERENCE.exec(`${domain}/${remainder}`);
  if (!match || match[1]!.length > NAME_MAX) return undefined;
  const [, , tag, digest] = match;
  if (digest !== undefined && !KNOWN_DIGEST.test(digest)) return undefined;
  return {
    domain,
    path: match[1]!.slice(domain.length + 1),
    ...(tag === undefined ? {} : { tag }),
    ...(digest === undefined ? {} : { digest }),
  };
}

/** splitDockerDomain: where the domain ends, and docker.io's defaults. */
function splitDomain(name: string): [string, string] {
  const slash = name.indexOf("/");
  if (slash === -1) return [DEFAULT_DOMAIN, OFFICIAL + name];
  const first = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  let [domain, remote] = [DEFAULT_DOMAIN, name];
  // In docker's order: the legacy name of Docker Hub before anything with a dot is a domain.
  if (first === LEGACY_DOMAIN) remote = rest;
  else if (first === "localhost" || /[.:]/.test(first) || first.toLowerCase() !== first)
    [domain, remote] = [first, rest];
  if (domain === DEFAULT_DOMAIN && !remote.includes("/")) remote = OFFICIAL + remote;
  return [domain, remote];
}

function format(name: string, reference: Reference): string {
  return `${name}${reference.tag === undefined ? "" : `:${reference.tag}`}${
    reference.digest === undefined ? "" : `@${reference.digest}`
  }`;
}

/** FamiliarString: docker.io's domain left out, and its `library/` where nothing nests under it. */
function familiar(reference: Reference): string {
  if (reference.domain !== DEFAULT_DOMAIN)
    return format(`${reference.domain}/${reference.path}`, reference);
  const official = reference.path.startsWith(OFFICIAL) ? reference.path.slice(OFFICIAL.length) : "";
  return format(official && !official.includes("/") ? official : reference.path, reference);
}

/**
 * References already read: a list holds many containers of few images, and reading one costs
 * about 3 µs (300 containers of one image, 1 ms of a CLI run).
 */
const FAMILIAR = new Map<string, string>();

/**
 * A reference as the docker CLI shows it (FamiliarString of ParseNormalizedNamed):
 * `docker.io/library/busybox:1` is `busybox:1`, `docker.io/local/app:1` is `local/app:1`,
 * another registry's stays whole; what docker could not read (an image id, `<none>:<none>`)
 * is given back as it is.
 * @example
 * ```ts
 * familiarReference("docker.io/local/busybox:1"); // "local/busybox:1"
 * familiarReference("quay.io/org/app@sha256:…"); // unchanged
 * ```
 */
export function familiarReference(reference: string): string {
  let shown = FAMILIAR.get(reference);
  if (shown === undefined) {
    const parsed = parseNormalized(reference);
    shown = parsed ? familiar(parsed) : reference;
    // Bounded: serve meets new references for as long as it runs.
    if (FAMILIAR.size >= 1000) FAMILIAR.clear();
    FAMILIAR.set(reference, shown);
  }
  return shown;
}

/**
 * The one form of a reference that every way of writing it shares, to compare them: familiar,
 * with `:latest` where it names neither a tag nor a digest (TagNameOnly), so that `busybox`,
 * `busybox:latest` and `docker.io/library/busybox` are `busybox:latest`; `undefined` for what
 * docker could not read.
 * @example
 * ```ts
 * comparableReference("docker.io/library/busybox"); // "busybox:latest"
 * ```
 */
export function comparableReference(reference: string): string | undefined {
  const parsed = parseNormalized(reference);
  if (!parsed) return undefined;
  return familiar(
    parsed.tag === undefined && parsed.digest === undefined ? { ...parsed, tag: "latest" } : parsed,
  );
}
