// The parts JSON Schemas of response bodies are made of, for the OpenAPI document: typed so that
// each schema keeps its literal type, from which a test derives the body's type
// (json-schema-to-ts). Dependency-free: an operation entry declares the schema of a new body.

/** A JSON Schema. */
export type Schema = Readonly<Record<string, unknown>>;

export const str = { type: "string" } as const;

export const int = { type: "integer" } as const;

export const bool = { type: "boolean" } as const;

export type Keys<P> = Array<keyof P & string>;

/** An object of `properties`, all of them `required` unless said; other properties allowed. */
export function obj<
  const P extends Record<string, Schema>,
  const R extends readonly string[] = Keys<P>,
>(properties: P, required?: R) {
  return {
    type: "object" as const,
    properties,
    required: (required ?? Object.keys(properties)) as R,
  };
}

/** The same, and no other property. */
export function closed<
  const P extends Record<string, Schema>,
  const R extends readonly string[] = Keys<P>,
>(properties: P, required?: R) {
  return { ...obj<P, R>(properties, required), additionalProperties: false as const };
}

/** An object of `properties`, all required but the `optional` ones; other properties allowed. */
export function objOptional<
  const P extends Record<string, Schema>,
  const O extends keyof P & string,
>(properties: P, optional: readonly O[]) {
  const required = Object.keys(properties).filter(
    (key) => !(optional as readonly string[]).includes(key),
  ) as Array<Exclude<keyof P & string, O>>;
  return obj(properties, required);
}

export const ref = <const N extends string>(name: N) => ({
  $ref: `#/components/schemas/${name}` as const,
});

export const arrayOf = <const I extends Schema>(items: I) => ({ type: "array" as const, items });

export const stringMap = { type: "object", additionalProperties: { type: "string" } } as const;

/** An object of any keys, each value a `values`. */
export const mapOf = <const V extends Schema>(values: V) => ({
  type: "object" as const,
  additionalProperties: values,
});

export const nullable = <const T extends string>(type: T) => ({ type: [type, "null"] as const });

/** A `schema`, or null. */
export const orNull = <const S extends Schema>(schema: S) => ({
  oneOf: [schema, { type: "null" as const }] as const,
});

/** Numbers from 0 up, one per name. */
export function counts<const K extends string>(
  names: readonly K[],
): Record<K, { type: "number"; minimum: 0 }> {
  return Object.fromEntries(names.map((key) => [key, { type: "number", minimum: 0 }])) as Record<
    K,
    { type: "number"; minimum: 0 }
  >;
}

/** An item of an across-cluster list: the item `schema` with the cluster it is in. */
export const inCluster = <const N extends string>(schema: N) => ({
  allOf: [ref(schema), obj({ cluster: ref("ClusterRef") })] as const,
});

/** A list of strings, or null: how an engine sends a list it may have none of. */
export const nullableStrings = orNull(arrayOf(str));
