/**
 * `make`'s value, made on the first call: the config's zod schemas are made so, when a config
 * file has the key they check (config-schema.ts), not when their module loads.
 */
export function cached<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
