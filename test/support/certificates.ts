import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const openssl = (dir: string, ...args: string[]) =>
  promisify(execFile)("openssl", args, { cwd: dir });
const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/**
 * A CA in `dir` (`<ca>.pem`, `<ca>.key`) and, for each name, a key (`<name>.key`) with a
 * certificate it signed (`<name>.pem`); `server` gets the name 127.0.0.1, others are clients.
 */
export async function certificates(dir: string, ca: string, names: string[]): Promise<void> {
  await openssl(
    dir,
    "req",
    "-x509",
    ...EC,
    "-keyout",
    `${ca}.key`,
    "-out",
    `${ca}.pem`,
    "-days",
    "1",
    "-subj",
    `/CN=${ca}`,
  );
  for (const name of names) {
    await openssl(
      dir,
      "req",
      ...EC,
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.csr`,
      "-subj",
      `/CN=${name}`,
    );
    await writeFile(
      join(dir, `${name}.ext`),
      name === "server"
        ? "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
        : "extendedKeyUsage=clientAuth\n",
    );
    await openssl(
      dir,
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      `${ca}.pem`,
      "-CAkey",
      `${ca}.key`,
      "-CAcreateserial",
      "-out",
      `${name}.pem`,
      "-days",
      "1",
      "-extfile",
      `${name}.ext`,
    );
  }
}

/** `<name>.key` encrypted with a passphrase, as `<name>-encrypted.key`. */
export async function encryptKey(dir: string, name: string): Promise<void> {
  await openssl(
    dir,
    "pkcs8",
    "-topk8",
    "-in",
    `${name}.key`,
    "-out",
    `${name}-encrypted.key`,
    "-passout",
    "pass:secret",
  );
}
