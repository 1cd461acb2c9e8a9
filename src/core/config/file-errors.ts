/**
 * The words for a file docklens could not read, by error code: one table, so that a config file
 * and a key file it names fail alike (`cannot read config x.json: no such file`,
 * `tls.ca: cannot read the file (no such file)`).
 */
const FILE_ERRORS = new Map([
  ["ENOENT", "no such file"],
  ["EACCES", "permission denied"],
  ["EISDIR", "is a directory"],
]);

/**
 * Why a file could not be read, in those words; `undefined` for an error without a code of the
 * table, which each caller reports its own way.
 */
export function fileErrorReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return code === undefined ? undefined : FILE_ERRORS.get(code);
}
