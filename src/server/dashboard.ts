// The web dashboard's files (src/web, built into dist/web by `npm run build`), served beside the
// JSON interface: `/` and `/index.html` the page, `/assets/*` its content-hashed scripts and
// styles. Only the files found in the folder when the app starts are ever served, looked up by
// exact name, so no request path can reach another file (docs/http-interface.md, "Dashboard").
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { send, setResponseHeader, type H3Event } from "h3";
import { encodedBody, sendEncoded, type Encoded } from "./respond.ts";

/**
 * The page's Content-Security-Policy: its own scripts, styles and API only, no inline code, no
 * eval, never in a frame. Engine data the page shows can then never run as script, even if a
 * bug rendered it as markup.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

interface StaticFile {
  body: Buffer;
  /** The text files (the page, its scripts and styles), which go compressed as clients ask. */
  text?: Encoded;
  type: string;
  immutable: boolean;
}

/** Answers a request for one of the dashboard's files; `undefined` when it is not one. */
export type DashboardHandler = (event: H3Event, pathname: string) => Promise<void> | undefined;

/**
 * The folder of the built page: `dist/web` beside the bundled server (`dist/*.mjs`), or the
 * package's `dist/web` when the server runs from its sources (`src/server/`, in tests). A
 * folder counts only with its `index.html` and `assets/`: `src/web` itself has no `assets/`.
 */
export function findDashboard(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  return [join(from, "web"), join(from, "..", "web"), join(from, "..", "..", "dist", "web")].find(
    (dir) => existsSync(join(dir, "index.html")) && existsSync(join(dir, "assets")),
  );
}

/**
 * Read the dashboard in `dir` (default: {@link findDashboard}) into memory: a few hundred KB,
 * read once. `undefined` when there is no built page (a source checkout before `npm run build`):
 * then `/` is an unknown path like any other.
 */
export function createDashboard(dir = findDashboard()): DashboardHandler | undefined {
  if (!dir || !existsSync(join(dir, "index.html"))) return undefined;
  const files = new Map<string, StaticFile>();
  const add = (path: string, file: string, immutable: boolean) => {
    const type = TYPES[extname(file)];
    if (!type || !statSync(file).isFile()) return;
    const body = readFileSync(file);
    const text = /^text\/|svg|json/.test(type) ? encodedBody(body) : undefined;
    files.set(path, { body, ...(text ? { text } : {}), type, immutable });
  };
  add("/", join(dir, "index.html"), false);
  files.set("/index.html", files.get("/")!);
  const assets = join(dir, "assets");
  if (existsSync(assets))
    for (const name of readdirSync(assets)) add(`/assets/${name}`, join(assets, name), true);
  return (event, pathname) => {
    const file = files.get(pathname);
    if (!file || (event.method !== "GET" && event.method !== "HEAD")) return undefined;
    setResponseHeader(event, "Content-Type", file.type);
    // The page itself is checked every time, so a new build is seen at once; its assets have
    // content-hashed names and never change.
    setResponseHeader(
      event,
      "Cache-Control",
      file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    );
    setResponseHeader(event, "Content-Security-Policy", DASHBOARD_CSP);
    setResponseHeader(event, "Referrer-Policy", "no-referrer");
    setResponseHeader(event, "X-Frame-Options", "DENY");
    return file.text ? sendEncoded(event, file.text, file.type) : send(event, file.body);
  };
}
