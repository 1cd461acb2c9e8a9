import { readFileSync, statSync, type Stats } from "node:fs";

/**
 * The words for a file docklens could not read, by error code: one table, so that a config file
 * and a key file it names fail alike (`cannot read config x.json: no such file`,
 * `tls.ca: cannot read the file (no such file)`).
 */
const FILE_ERRORS = new Map([
  ["ENOENT", "no such file"],
  ["EACCES", "permission denied"],
  ["EISDIR", "is a directory"],
  ["ENOTREGULAR", "not a regular file"],
]);

/**
 * Why a file could not be read, in those words; `undefined` for an error without a code of the
 * table, which each caller reports its own way.
 */
export function fileErrorReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return code === undefined ? undefined : FILE_ERRORS.get(code);
}

/** Refuses what is neither a regular file nor a directory (which fails at once, EISDIR). */
function checkReadable(stats: Stats): void {
  // A FIFO or a device would hold a read (a sync one, the whole process) until something writes.
  if (!stats.isFile() && !stats.isDirectory())
    throw Object.assign(new Error("not a regular file"), { code: "ENOTREGULAR" });
}

/** A file docklens could not read; its message is the reason in the table's words, never the path. */
export class FileReadError extends Error {}

const failure = (error: unknown) =>
  new FileReadError(
    fileErrorReason(error) ?? (error as NodeJS.ErrnoException).code ?? "unreadable",
    { cause: error },
  );

/** A key, token or secret file's text; a FIFO or a device is refused. Throws {@link FileReadError}. */
export function readSecretFileSync(path: string): string {
  try {
    checkReadable(statSync(path));
    return readFileSync(path, "utf8");
  } catch (error) {
    throw failure(error);
  }
}

/** {@link readSecretFileSync}, without blocking: the file's bytes. */
export async function readSecretFile(path: string): Promise<Buffer> {
  // Loaded here: node:fs/promises costs a CLI run ~3 ms, and only these files need it.
  const fs = process.getBuiltinModule("node:fs/promises");
  try {
    checkReadable(await fs.stat(path));
    return await fs.readFile(path);
  } catch (error) {
    throw failure(error);
  }
}
