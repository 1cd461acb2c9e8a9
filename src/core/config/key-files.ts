import type { KeyObject, X509Certificate } from "node:crypto";
import { readSecretFileSync } from "./file-errors.ts";

/** The TLS and SSH files of one cluster, as its config names them. */
export interface KeyFiles {
  tls?: { ca?: string; cert?: string; key?: string };
  ssh?: { privateKey?: string };
}

/** A problem with one of those files: the field (`tls.ca`) and what is wrong, never the contents. */
export interface KeyFileProblem {
  field: string;
  message: string;
}

/**
 * Check that the files a cluster names can be read and hold what each field wants: PEM
 * certificates for `tls.ca` and `tls.cert`, an unencrypted PEM key for `tls.key` that belongs to
 * `tls.cert`, a PEM private key for `ssh.privateKey`. Why at load time: a wrong file otherwise
 * surfaces on the first engine call as a TLS failure or a refused connection, far from its cause.
 * Returns the first problem; messages name the field and the reason, never what a file holds.
 */
export function checkKeyFiles(files: KeyFiles): KeyFileProblem | undefined {
  // node:crypto costs a CLI run ~10 ms to load, and every cluster of a config file passes here:
  // only one with TLS files pays for it, when the first is read.
  const crypto = () => process.getBuiltinModule("node:crypto");
  const problem = (field: string, message: string) => ({ field, message });
  const read = (field: string, path: string): string | KeyFileProblem => {
    try {
      return readSecretFileSync(path);
    } catch (error) {
      return problem(field, `cannot read the file (${(error as Error).message})`);
    }
  };
  const { tls, ssh } = files;
  let cert: X509Certificate | undefined;
  let key: KeyObject | undefined;
  for (const field of ["ca", "cert"] as const) {
    const path = tls?.[field];
    if (!path) continue;
    const text = read(`tls.${field}`, path);
    if (typeof text !== "string") return text;
    try {
      const parsed = new (crypto().X509Certificate)(text);
      if (field === "cert") cert = parsed;
    } catch {
      return problem(`tls.${field}`, "expected a PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
  }
  if (tls?.key) {
    const text = read("tls.key", tls.key);
    if (typeof text !== "string") return text;
    if (text.includes("ENCRYPTED"))
      return problem("tls.key", "the key is encrypted; docklens needs a key without a passphrase");
    try {
      key = crypto().createPrivateKey(text);
    } catch {
      return problem("tls.key", "expected a PEM private key (-----BEGIN ... PRIVATE KEY-----)");
    }
  }
  if (cert && key && !cert.checkPrivateKey(key))
    return problem("tls.key", "the key does not belong to the certificate of tls.cert");
  if (ssh?.privateKey) {
    const text = read("ssh.privateKey", ssh.privateKey);
    if (typeof text !== "string") return text;
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
      return problem(
        "ssh.privateKey",
        "expected a private key file (-----BEGIN ... PRIVATE KEY-----)",
      );
  }
  return undefined;
}
