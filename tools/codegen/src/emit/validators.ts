/**
 * Emitter: model → validators. ajv standalone code, so no schema is compiled at run time (usable in
 * browsers under a strict CSP), with one validating function per named schema, channel payload and
 * method params/result, and typed guards over them.
 */
// ajv's standalone module, built in linear time (ajv's own overflows the stack at some 10,000 exports).
import { standaloneCode } from './ajv-standalone';
import type { ApiModel, JsonSchema, MethodModel } from '../model/types';
import type { EmitOptions, EmittedFile } from './emitted-file';
import { refName } from '../model/schema-tools';
import { FORMATS_MODULE, formatsIn, schemaAjv } from '../model/schema-ajv';
import { tsKey, tsString } from './escape';
import { payloadTypeOf, tsName } from '../model/naming';

const ROOT_ID = 'api';

/** Export names inside the standalone module: identifiers, grouped by prefix. */
export const exportName = {
  schema: (name: string) => `schema_${ident(name)}`,
  channel: (id: string) => `channel_${ident(id)}`,
  params: (operationId: string) => `params_${ident(operationId)}`,
  result: (operationId: string) => `result_${ident(operationId)}`,
  /** A message of a spec that speaks its own messages, by its place in the wire model's list. */
  message: (index: number) => `message_${index}`,
};
const ident = (s: string) => s.replace(/[^A-Za-z0-9_$]/g, '_');

/** One exported validator: its group in the guards module, its key there, its export name and its type. */
interface Entry {
  group: string;
  key: string;
  exp: string;
  type: string;
}

/** The validators to emit: schema definitions, each export's schema ref, and the entries of the guards module. */
function collectValidators(model: ApiModel): {
  definitions: Record<string, JsonSchema>;
  refs: Record<string, string>;
  entries: Entry[];
} {
  const definitions: Record<string, JsonSchema> = { ...model.schemas };
  const refs: Record<string, string> = {};
  const entries: Entry[] = [];

  for (const name of Object.keys(model.schemas)) {
    refs[exportName.schema(name)] = `${ROOT_ID}#/definitions/${name}`;
    entries.push({ group: 'schemas', key: name, exp: exportName.schema(name), type: `T.${tsName(name)}` });
  }
  const inline = (key: string, schema: JsonSchema): string => {
    const named = refName(schema);
    if (named) return `${ROOT_ID}#/definitions/${named}`;
    definitions[key] = schema;
    return `${ROOT_ID}#/definitions/${key}`;
  };
  for (const c of model.channels) {
    refs[exportName.channel(c.id)] = inline(`channel.${c.id}`, c.payload.schema);
    entries.push({ group: 'channels', key: c.id, exp: exportName.channel(c.id), type: payloadTypeOf(c.payload) });
  }
  for (const m of model.methods) {
    refs[exportName.params(m.id)] = inline(`params.${m.id}`, m.params.schema);
    refs[exportName.result(m.id)] = inline(`result.${m.id}`, m.result.schema);
    entries.push(...methodEntries(m));
  }
  for (const [i, message] of (model.wire?.messages ?? []).entries()) {
    refs[exportName.message(i)] = inline(`message.${i}`, message.payload.schema);
    entries.push({
      group: 'messages',
      key: message.id,
      exp: exportName.message(i),
      type: payloadTypeOf(message.payload),
    });
  }

  return { definitions, refs, entries };
}

/** A method's guards: its params and result, and the records assumed where the document leaves them open. */
function methodEntries(m: MethodModel): Entry[] {
  return [
    { group: 'params', key: m.name, exp: exportName.params(m.id), type: payloadTypeOf(m.params) },
    { group: 'results', key: m.name, exp: exportName.result(m.id), type: payloadTypeOf(m.result) },
    {
      group: 'assumedParams',
      key: m.name,
      exp: m.assumedParams ? exportName.schema(m.assumedParams) : exportName.params(m.id),
      type: m.assumedParams ? `T.${tsName(m.assumedParams)}` : payloadTypeOf(m.params),
    },
    {
      group: 'assumedResults',
      key: m.name,
      exp: m.assumedResult ? exportName.schema(m.assumedResult) : exportName.result(m.id),
      type: m.assumedResult ? `T.${tsName(m.assumedResult)}` : payloadTypeOf(m.result),
    },
  ];
}

/** The ajv standalone module of every validator (each schema exported once, other names aliased to it). */
function standaloneModule(definitions: Record<string, JsonSchema>, refs: Record<string, string>): string {
  // The spec's schemas as ajv reads them everywhere (model/schema-ajv.ts); the formats it checks are
  // imported from ajv-formats by the generated code, a dependency then (usesFormatsModule).
  const ajv = schemaAjv({
    code: { source: true, esm: true, lines: true, optimize: true },
    formats: formatsIn(definitions),
  });
  ajv.addSchema({ $id: ROOT_ID, definitions }, ROOT_ID);
  // ajv declares a function twice when two export names share one schema: export each schema once
  // and alias the other names to it.
  const primary = new Map<string, string>();
  const aliases: string[] = [];
  for (const [exp, ref] of Object.entries(refs)) {
    const first = primary.get(ref);
    if (first) aliases.push(`export const ${exp} = ${first};`);
    else primary.set(ref, exp);
  }
  let code = standaloneCode(ajv, Object.fromEntries([...primary].map(([ref, exp]) => [exp, ref])));
  code = esmRuntimeImports(code) + '\n' + aliases.join('\n');

  return code.trimEnd() + '\n';
}

/** The declarations of the standalone module: each export typed with what it validates. */
function declarations(refs: Record<string, string>, entries: Entry[], typesImport: string): string {
  return [
    `import type * as T from ${tsString(typesImport)};`,
    '',
    '/** An ajv validating function: true when valid, otherwise false with `errors` set. */',
    'export interface ValidateFunction<Valid = unknown> {',
    '  (data: unknown): data is Valid;',
    '  errors?: null | Array<{ instancePath: string; schemaPath: string; keyword: ' +
      'string; params: Record<string, unknown>; message?: string }>;',
    '}',
    '',
    ...Object.keys(refs).map((exp) => {
      const e = entries.find((x) => x.exp === exp)!;
      return `export declare const ${exp}: ValidateFunction<${e.type}>;`;
    }),
    '',
  ].join('\n');
}

/** The typed guards module: validators grouped by schema, channel and method, and `is.<Schema>` guards. */
function guardsModule(model: ApiModel, entries: Entry[], typesImport: string): string {
  const all = ['schemas', 'channels', 'params', 'results', 'assumedParams', 'assumedResults', 'messages'] as const;
  // `messages` only for a spec that speaks its own messages (model/wire.ts): a JSON-RPC SDK's guards stay as they were.
  const groups = all.filter((g) => g !== 'messages' || model.wire !== undefined);
  const docs: Record<(typeof all)[number], string> = {
    schemas: 'Validators by schema name.',
    channels: "Validators of each channel's payload, by channel id.",
    params: "Validators of each method's params as the interface describes them, by method name.",
    results: "Validators of each method's result as the interface describes it, by method name.",
    assumedParams: 'Validators of the params shape our sandbox and client assume, by method name.',
    assumedResults: 'Validators of the result shape our sandbox and client assume, by method name.',
    messages: 'Validators of each message of the wire (what is sent and received as it is), by its place in the spec.',
  };
  return [
    `import type * as T from ${tsString(typesImport)};`,
    `import * as v from './validators.gen.js';`,
    '',
    ...groups.flatMap((g) => [
      `/** ${docs[g]} */`,
      `export const ${g}Validators = {`,
      ...entries
        .filter((e) => e.group === g)
        .map((e) => `  ${tsString(e.key)}: v.${e.exp} as v.ValidateFunction<${e.type}>,`),
      '} as const;',
      '',
    ]),
    '/** Type guards by schema name: `is.Order(x)` narrows x to Order. */',
    'export const is = {',
    ...Object.keys(model.schemas).map(
      (n) => `  ${tsKey(n)}: (data: unknown): data is T.${tsName(n)} => v.${exportName.schema(n)}(data),`,
    ),
    '} as const;',
    '',
  ].join('\n');
}

/** The validators of a model: the standalone module, its declarations and the typed guards. */
export function emitValidators(model: ApiModel, options: EmitOptions): EmittedFile[] {
  const { definitions, refs, entries } = collectValidators(model);
  return [
    { slot: 'validators', path: 'validators.gen.js', content: standaloneModule(definitions, refs) },
    { slot: 'validators', path: 'validators.gen.d.ts', content: declarations(refs, entries, options.typesImport) },
    { slot: 'validators', path: 'guards.gen.ts', content: guardsModule(model, entries, options.typesImport) },
  ];
}

/** Whether validators code imports the formats of ajv-formats (so its package depends on ajv-formats). */
export const usesFormatsModule = (validatorsCode: string): boolean => validatorsCode.includes(`"${FORMATS_MODULE}.js"`);

/**
 * ajv's ESM output still calls require() for its runtime helpers; turn each into an import so the
 * module loads in browsers and under ESM without createRequire.
 */
function esmRuntimeImports(code: string): string {
  const imports: string[] = [];
  const seen = new Map<string, string>();
  const out = code.replace(/require\("([^"]+)"\)/g, (_m, spec: string) => {
    let local = seen.get(spec);
    if (!local) {
      local = `__runtime${seen.size}`;
      seen.set(spec, local);
      const target = spec.endsWith('.js') ? spec : `${spec}.js`;
      imports.push(`import ${local} from ${JSON.stringify(target)};`);
    }
    return local;
  });
  return (imports.length ? imports.join('\n') + '\n' : '') + out;
}
