// All of the page's traffic: JSON reads, NDJSON streams read with fetch (an EventSource could
// not send the token), the token itself, and the server's error bodies turned into notices.
// The token lives in sessionStorage (this tab, until it closes) and only ever goes out in the
// Authorization header, never in a URL, where logs and history would keep it.
import { shallowRef } from "vue";
import type { ContainerWatchLine, ErrorBody } from "./types.ts";

const TOKEN_KEY = "docklens.token";

/** An HTTP or network failure, worded for people: the server's `{ code, message }` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }

  /** As the server's error bodies say it: `{ code, message }`. */
  toBody(): ErrorBody {
    return { code: this.code as ErrorBody["code"], message: this.message };
  }
}

/**
 * Whether the server wants a token, asked once by the first read without one: the refusal when
 * it does. Forgotten with the token, and when the question could not be sent.
 */
let probe: Promise<ApiError | undefined> | undefined;

/**
 * Ask the route index (which reads no engine, so it answers at once) without a token: the
 * server's refusal, after which the prompt shows, or nothing when it wants none.
 */
async function askForToken(): Promise<ApiError | undefined> {
  let response: Response;
  try {
    response = await fetch(apiUrl("/detail"), { headers: { Accept: "application/json" } });
  } catch {
    // Not known: the read goes on and says what went wrong; the next one asks again.
    probe = undefined;
    return undefined;
  }
  if (response.status !== 401) return undefined;
  const body = (await response.json().catch(() => undefined)) as { error?: ErrorBody } | undefined;
  tokenWanted.value = true;
  return new ApiError(
    body?.error?.code ?? "UNAUTHORIZED",
    body?.error?.message ?? "this server wants a token",
    401,
  );
}

/** True while the server wants a token the page does not have (or has wrong): App shows the prompt. */
export const tokenWanted = shallowRef(false);
/** Why the last token was refused, for the prompt; '' on the first ask. */
export const tokenNotice = shallowRef("");
/** Bumped when a token is entered or forgotten: views keyed on it load again. */
export const tokenGeneration = shallowRef(0);
/** True while this tab holds a token (App offers to forget it). */
export const hasToken = shallowRef(readToken() !== "");

function readToken(): string {
  // Storage can be refused (a sandboxed frame, a privacy setting): then there is no token.
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

/** Keep `token` for this tab's session and load every view again with it. */
export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  hasToken.value = true;
  tokenWanted.value = false;
  tokenGeneration.value++;
}

/** Forget the token: on a shared machine, before walking away. The next call asks again. */
export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  probe = undefined;
  hasToken.value = false;
  tokenNotice.value = "";
  tokenGeneration.value++;
}

function headers(accept: string): HeadersInit {
  const token = readToken();
  return token ? { Accept: accept, Authorization: `Bearer ${token}` } : { Accept: accept };
}

/** A path segment, percent-encoded: names come from engines and may hold anything. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));

/** Build `path?k=v&k=v2`; repeated keys for arrays, spaces as %20 (the server reads `+` as plus). */
export function withQuery(path: string, query: Record<string, string | string[] | undefined>) {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query))
    for (const one of value === undefined ? [] : Array.isArray(value) ? value : [value])
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(one)}`);
  return parts.length ? `${path}?${parts.join("&")}` : path;
}

/**
 * The address of an API path, relative to the page: behind a reverse proxy that serves docklens
 * under `/docklens/`, `/list/cluster` is asked as `/docklens/list/cluster`.
 */
export const apiUrl = (path: string): string => path.replace(/^\//, "");

/** Why a token cannot go in a header (fetch takes only bytes 0x00-0xFF there), or ''. */
export function tokenProblem(token: string): string {
  return /^[\x21-\x7e]+$/.test(token)
    ? ""
    : "That token is not valid: a token is printable ASCII, without spaces. Enter it again.";
}

async function request(path: string, accept: string, signal?: AbortSignal): Promise<Response> {
  const token = readToken();
  const problem = token && tokenProblem(token);
  if (problem) {
    // It would fail in fetch as a TypeError, as if the server were down, again and again.
    sessionStorage.removeItem(TOKEN_KEY);
    hasToken.value = false;
    tokenNotice.value = problem;
    tokenWanted.value = true;
    throw new ApiError("INVALID_TOKEN", problem);
  }
  // Without a token, one small read asks first whether the server wants one: when it does, no
  // other is sent (the browser logs each refused request in the console).
  const refused = token ? undefined : await (probe ??= askForToken());
  if (refused) throw refused;
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { headers: headers(accept), signal: signal ?? null });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError("NETWORK", `docklens serve cannot be reached (${String(error)})`);
  }
  if (response.ok) return response;
  const body = (await response.json().catch(() => undefined)) as { error?: ErrorBody } | undefined;
  const code = body?.error?.code ?? `HTTP_${response.status}`;
  const message = body?.error?.message ?? `${response.status} ${response.statusText}`;
  if (response.status === 401) {
    // Without a token, a 401 is the first ask: a notice already up (a token not sent) stays.
    if (readToken()) tokenNotice.value = "That token was refused. Enter a valid one.";
    tokenWanted.value = true;
  }
  throw new ApiError(code, message, response.status);
}

/** GET a JSON body. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await request(path, "application/json", signal)).json()) as T;
}

/**
 * Read an NDJSON stream, calling `onItem` with each object as it comes, until the server ends
 * it or `signal` aborts (then it resolves quietly). A last `{ error }` line is passed on too.
 * `onOpen` is called once the server has answered 200: a quiet stream is live before its first line.
 */
export async function streamNdjson<T>(
  path: string,
  onItem: (item: T) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  const response = await request(path, "application/x-ndjson", signal);
  onOpen?.();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (pending + value).split("\n");
      pending = lines.pop()!;
      for (const line of lines) if (line) onItem(JSON.parse(line) as T);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    reader.releaseLock();
  }
}

/** After a stream ends or fails, the page opens it again after this long. */
const RECONNECT_MS = 2000;

/** What {@link keepOpen} asks and tells the stream's owner. */
export interface KeepOpenHooks {
  /** True while opening it would only be refused (no token): stop; what ends that starts it again. */
  paused?: () => boolean;
  /** A failure; true when it would only come again (a refused selection): stop. */
  failed?: (error: unknown) => boolean | void;
  /** It ended or failed, and opens again after a wait. */
  retrying?: () => void;
}

/**
 * Keep a stream open: `open` it again a while after each end or failure, until `signal` aborts
 * (replaced or left: the new stream's state is not this one's to say, so nothing more is) or a
 * hook says stop.
 */
export async function keepOpen(
  open: () => Promise<void>,
  signal: AbortSignal,
  hooks: KeepOpenHooks = {},
): Promise<void> {
  while (!signal.aborted && !hooks.paused?.()) {
    try {
      await open();
    } catch (error) {
      if (signal.aborted || hooks.paused?.() || hooks.failed?.(error)) return;
    }
    if (signal.aborted) return;
    hooks.retrying?.();
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

/**
 * Follow the fleet's containers (`/list/containers?watch=true`): each cluster's snapshot, then
 * each change, a line at a time, as {@link streamNdjson} reads them.
 */
export function watchContainers(
  onLine: (line: ContainerWatchLine | { error: ErrorBody }) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  return streamNdjson("/list/containers?watch=true", onLine, signal, onOpen);
}

/** A notice's text for any error. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** True for the error an aborted fetch throws (a view left while it loaded). */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
