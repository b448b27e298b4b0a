/**
 * Every schema must compile (the validators are made of them) and every example in the spec must
 * validate against its schema: a message's examples against its payload, a schema's examples against
 * the schema. Generation stops on a spec whose schemas ajv refuses, naming the file, line and JSON
 * pointer of each; an example that does not fit stops it too for this repository's own spec and under
 * `generate --strict-examples`, and is a warning (with its place) for anyone else's spec.
 */
import type { Ajv } from 'ajv';
import type { LoadedSpec } from '../load/load-spec';
import { SpecError, toPointer, type SpecProblem } from '../load/spec-error';
import { cleanSchema } from './schema-tools';
import { channelMatcher } from './channel-template';
import { formatsIn, schemaAjv, unwrapMultiFormat } from './schema-ajv';
import type { ApiModel } from './types';
import { isObj, isRef, type Obj } from '../load/spec-types';

/** An example to check: the definition it must fit (`key`), where it stands and its value. */
interface ExampleCase {
  key: string;
  path: Array<string | number>;
  value: unknown;
}

/** Every example of the spec with the schema it must fit, and the definitions those schemas make. */
function collectCases(spec: LoadedSpec, model: ApiModel) {
  const definitions: Obj = { ...model.schemas };
  const cases: ExampleCase[] = [];
  const components = spec.data.components ?? {};
  // Messages with examples: those of components, and those written inline in a channel.
  const messages: Array<[Array<string | number>, unknown]> = Object.entries(components.messages ?? {}).map(
    ([name, m]) => [['components', 'messages', name], m],
  );
  for (const [id, ch] of Object.entries(spec.data.channels ?? {})) {
    const own = isRef(ch) ? {} : (ch.messages ?? {});
    for (const [name, m] of Object.entries(own)) if (!isRef(m)) messages.push([['channels', id, 'messages', name], m]);
  }
  const messagePlaces = new Map<string, Array<string | number>>();
  for (const [at, raw] of messages) {
    if (!isObj(raw) || !Array.isArray(raw.examples) || raw.payload === undefined) continue;
    // A payload in a format other than JSON Schema is not read, so neither are its examples.
    const { schema, foreign } = unwrapMultiFormat(raw.payload);
    if (foreign !== null) continue;
    const key = `__message_${messagePlaces.size}`;
    messagePlaces.set(key, [...at, 'payload', ...(schema !== raw.payload ? ['schema'] : [])]);
    definitions[key] = cleanSchema(schema);
    raw.examples.forEach((ex, i) => {
      if (isObj(ex) && 'payload' in ex) cases.push({ key, path: [...at, 'examples', i, 'payload'], value: ex.payload });
    });
  }
  for (const [name, wrapped] of Object.entries(components.schemas ?? {})) {
    const raw = unwrapMultiFormat(wrapped).schema;
    if (!isObj(raw) || !Array.isArray(raw.examples)) continue;
    const base = model.schemaOrigins?.[name] ?? ['components', 'schemas', name];
    raw.examples.forEach((value, i) => cases.push({ key: name, path: [...base, 'examples', i], value }));
  }
  return { definitions, cases, messagePlaces };
}

/** The validator of one definition of the `examples` schema. */
const definitionOf = (ajv: Ajv, key: string) =>
  ajv.getSchema(`examples#/definitions/${encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))}`);

/** How many of an example's failures a warning names before it says how many more. */
const SHOWN_FAILURES = 3;

/**
 * The problems of the examples that do not fit their schemas: under `strict`, an error for each
 * failure; otherwise one warning an example, naming its first failures (the SDK is generated).
 */
function exampleProblems(spec: LoadedSpec, ajv: Ajv, cases: ExampleCase[], strict: boolean): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const c of cases) {
    const validate = definitionOf(ajv, c.key);
    if (!validate || validate(c.value)) continue;
    // ajv's message names a missing property itself, at the object that lacks it; each line once (the
    // branches of a oneOf may each report the same failure).
    const failures = [
      ...new Set((validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`)),
    ];
    const place = { file: spec.file, pointer: toPointer(c.path), line: spec.source.lineOf(c.path) };
    if (strict) {
      for (const f of failures) problems.push({ ...place, message: `example is not valid: ${f}`, severity: 'error' });
      continue;
    }
    const more = failures.length > SHOWN_FAILURES ? `; … ${failures.length - SHOWN_FAILURES} more` : '';
    const message =
      `example does not fit its schema (generated all the same; --strict-examples ` +
      `refuses it): ${failures.slice(0, SHOWN_FAILURES).join('; ')}${more}`;
    problems.push({ ...place, message, severity: 'warning' });
  }
  return problems;
}

/**
 * Check every schema compiles and every example fits its schema. Throws a SpecError listing the
 * errors: a schema ajv refuses, an x-address outside its channel, and (under `strict`, the default) an
 * example that does not fit. Returns the warnings: without `strict`, one per example that does not fit.
 */
export function checkExamples(spec: LoadedSpec, model: ApiModel, options: { strict?: boolean } = {}): SpecProblem[] {
  const { definitions, cases, messagePlaces } = collectCases(spec, model);
  // Each validator runs on a few examples at most: not worth ajv's optimising pass.
  const ajv = schemaAjv({ formats: formatsIn(...Object.values(definitions)), unoptimized: true });
  ajv.addSchema({ $id: 'examples', definitions });
  const compiled = compileProblems(spec, model, ajv, definitions, messagePlaces);
  if (compiled.length > 0) throw new SpecError(compiled);
  const found = [...exampleProblems(spec, ajv, cases, options.strict !== false), ...addressProblems(spec, model)];
  const errors = found.filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new SpecError(errors);
  return found;
}

/**
 * An example's x-address must be an address of its own channel. Through the one matcher every package
 * uses: the address must resolve to this channel, not another.
 */
function addressProblems(spec: LoadedSpec, model: ApiModel): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const match = channelMatcher(model.channels);
  for (const c of model.channels) {
    c.exampleAddresses.forEach((address, i) => {
      if (address !== null && match(address)?.channel !== c) {
        problems.push({
          file: spec.file,
          pointer: `#/channels/${c.id}`,
          line: spec.source.lineOf(['channels', c.id]),
          message: `example ${i + 1}: x-address "${address}" is not an address of ${c.address}`,
          severity: 'error',
        });
      }
    });
  }
  return problems;
}

/**
 * What ajv refuses to compile (a pattern that is no regular expression, a malformed keyword value the
 * parser let through), one problem per schema, at the schema's place: the validators are made of them.
 */
function compileProblems(
  spec: LoadedSpec,
  model: ApiModel,
  ajv: Ajv,
  definitions: Obj,
  messagePlaces: Map<string, Array<string | number>>,
): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const placeOf = (key: string): Array<string | number> =>
    messagePlaces.get(key) ?? model.schemaOrigins?.[key] ?? ['components', 'schemas', key];
  const reported = new Set<string>();
  const probe = schemaAjv({ formats: formatsIn(...Object.values(definitions)), unoptimized: true });
  // A schema fails too when one it refers to fails: report the one whose own keywords ajv refuses.
  const withoutRefs = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutRefs)
      : isObj(node)
        ? typeof node.$ref === 'string'
          ? {}
          : Object.fromEntries(
              Object.entries(node).map(([k, v]) => [
                k,
                k === 'examples' || k === 'default' || k === 'enum' || k === 'const' ? v : withoutRefs(v),
              ]),
            )
        : node;
  for (const key of Object.keys(definitions)) {
    try {
      definitionOf(ajv, key);
    } catch {
      // Compiled alone, without its references: a failure here is in its own keywords, reported here.
      let own: unknown;
      try {
        probe.compile(withoutRefs(definitions[key]) as object);
        continue;
      } catch (e) {
        own = e;
      }
      const path = placeOf(key);
      if (reported.has(toPointer(path))) continue;
      reported.add(toPointer(path));
      const message = ((own as Error).message || String(own)).split('\n')[0]!;
      problems.push({
        file: spec.file,
        pointer: toPointer(path),
        line: spec.source.lineOf(path),
        message: `the validators cannot use this schema: ${message}`,
        severity: 'error',
      });
    }
  }
  return problems;
}
