/**
 * The JSON Schema keywords every walker of a schema needs to tell apart (drafts 07 to 2020-12, as the
 * spec's schemas may use any of them): where a schema holds further schemas, which keywords hold data
 * rather than schemas, and which only annotate. One list for every tool (the code generator's loader,
 * model, emitters and diff, and the conformance runner), so that no two walkers disagree on what a
 * schema is. json-schema-traverse (ajv's) is not used: it lacks prefixItems, dependentSchemas and the
 * unevaluated keywords, which the loader accepts.
 */

/** Keywords whose value is one schema (`items` also takes a list of schemas in draft-07: SCHEMA_LIST). */
export const SCHEMA_ONE: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/** Keywords whose value maps names (of properties, definitions), not keywords, to schemas. */
export const SCHEMA_MAP: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'dependentSchemas',
]);

/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/** Keywords whose value is data (an example, a default, the allowed values), never a schema. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['examples', 'example', 'default', 'enum', 'const']);

/** Keywords that only annotate: a schema of these alone accepts every value. */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  'title',
  'description',
  '$comment',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
];

/** Bounds on a number, a length or a count: a bigger value allows more. */
export const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** Bounds on a number, a length or a count: a bigger value allows less. */
export const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];

/** Whether a keyword holds schemas (one, a map of them or a list of them). */
export const holdsSchemas = (keyword: string): boolean =>
  SCHEMA_ONE.has(keyword) || SCHEMA_MAP.has(keyword) || SCHEMA_LIST.has(keyword);
