/**
 * The one ajv set-up every schema of a spec goes through (the example check and the standalone
 * validators): JSON Schema draft-07 as ajv knows it, the formats of ajv-formats, the AsyncAPI Schema
 * Object's own keywords (`discriminator`, `externalDocs`, and the OpenAPI habits `example` and `xml`)
 * declared as annotations, and anything else a parser-accepted spec may hold left to JSON Schema's rule:
 * an unknown keyword or format is ignored, and the model notes where (plain-spec.ts, `ignoredKeyword`,
 * `unknownFormat`). Also the AsyncAPI multi-format schema (`{schemaFormat, schema}`): JSON Schema and
 * AsyncAPI formats unwrap to their `schema`; any other format (Avro, Protobuf, RAML…) is an open payload.
 */
import { Ajv, _, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isObj } from '../load/spec-types';
import { SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE } from '@exchange-api/types/json-schema-keywords';

/** Keywords of the AsyncAPI Schema Object (and OpenAPI habits) that draft-07 lacks: annotations only. */
export const ASYNCAPI_ANNOTATIONS = ['discriminator', 'externalDocs', 'example', 'xml'] as const;

/** The formats the validators check (ajv-formats' full set); any other format is not checked. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(Object.keys(fullFormats));

/** Decimal places a `multipleOf` quotient is rounded to (ajv's multipleOfPrecision). */
export const MULTIPLE_OF_PRECISION = 9;

/** Where generated standalone code finds the formats it checks (an import of ajv-formats, a dependency then). */
export const FORMATS_MODULE = 'ajv-formats/dist/formats';

/**
 * An ajv instance for a spec's schemas. `formats` lists every format the schemas use: the ones
 * ajv-formats lacks are declared as unchecked. `code` makes it produce standalone code. `unoptimized`
 * skips ajv's pass that tidies the code it generates (a quarter of the compile time of our spec's
 * schemas): the code means the same, so a check that runs each validator a few times gains.
 */
export function schemaAjv(
  options: { formats?: Iterable<string>; code?: Options['code']; unoptimized?: boolean } = {},
): Ajv {
  const code = options.code
    ? { ...options.code, formats: _`require(${FORMATS_MODULE}).fullFormats` }
    : options.unoptimized
      ? { optimize: false }
      : undefined;
  const ajv = new Ajv({
    ...(code ? { code } : {}),
    // strictNumbers shapes the generated code (NaN and Infinity are no numbers); the other strict
    // checks would refuse what JSON Schema allows (an unknown keyword is ignored, a `properties`
    // without `type: object` applies to objects only), so they neither throw nor print.
    strict: true,
    strictSchema: 'log',
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    logger: { log: () => {}, warn: () => {}, error: () => {} },
    allowUnionTypes: true,
    // `multipleOf: 0.01` divides in binary floating point: 0.07 / 0.01 is 7.000000000000001, which
    // ajv's exact test refuses. A quotient within 1e-9 of a whole number passes (JSON Schema means the
    // decimal value; 0.015 still fails).
    multipleOfPrecision: MULTIPLE_OF_PRECISION,
    allErrors: true,
    messages: true,
  });
  addFormats(ajv);
  ajv.addVocabulary([...ASYNCAPI_ANNOTATIONS]);
  for (const f of options.formats ?? []) if (!KNOWN_FORMATS.has(f)) ajv.addFormat(f, true);
  return ajv;
}

/** Every `format` value in some schemas. */
export function formatsIn(...schemas: unknown[]): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObj(node)) return;
    if (typeof node.format === 'string') found.add(node.format);
    for (const [k, v] of Object.entries(node))
      if (k !== 'examples' && k !== 'example' && k !== 'default' && k !== 'enum' && k !== 'const') walk(v);
  };
  schemas.forEach(walk);
  return found;
}

let knownOf: Ajv | null = null;

/**
 * The keywords of a schema (at `path`) that no validator knows, with their JSON paths: ignored, as
 * JSON Schema says, and noted. `x-` keys are ours or the spec author's, never noted.
 */
export function ignoredKeywords(
  schema: unknown,
  path: Array<string | number>,
): Array<{ keyword: string; path: Array<string | number> }> {
  knownOf ??= schemaAjv();
  const known = knownOf;
  const out: Array<{ keyword: string; path: Array<string | number> }> = [];
  const walk = (node: unknown, at: Array<string | number>) => {
    if (!isObj(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) continue;
      if (!known.RULES.keywords[k]) out.push({ keyword: k, path: [...at, k] });
      else if (SCHEMA_LIST.has(k) && Array.isArray(v)) v.forEach((s, i) => walk(s, [...at, k, i]));
      else if (SCHEMA_ONE.has(k)) walk(v, [...at, k]);
      else if (SCHEMA_MAP.has(k) && isObj(v)) for (const [name, s] of Object.entries(v)) walk(s, [...at, k, name]);
    }
  };
  walk(schema, path);
  return out;
}

/** JSON Schema and AsyncAPI schema formats: their multi-format schemas unwrap to `schema`. */
const JSON_SCHEMA_FORMAT = /^application\/(vnd\.aai\.asyncapi|schema)(\+json|\+yaml)?\s*(;|$)/i;

/**
 * A schema as JSON Schema: a multi-format schema (`{schemaFormat, schema}`) of a JSON Schema or
 * AsyncAPI format is its `schema`; of another format (`foreign`), an open schema `{}`. Anything else
 * is returned as it is.
 */
export function unwrapMultiFormat(raw: unknown): { schema: unknown; foreign: string | null } {
  if (!isObj(raw) || typeof raw.schemaFormat !== 'string' || !('schema' in raw)) return { schema: raw, foreign: null };
  if (JSON_SCHEMA_FORMAT.test(raw.schemaFormat.trim())) return { schema: raw.schema, foreign: null };
  return { schema: {}, foreign: raw.schemaFormat };
}
