/**
 * Emitter: model → TypeScript types (json-schema-to-typescript, one root compile so every shared type
 * is declared once), the channel address types and builders, and the method map.
 */
import { compile } from 'json-schema-to-typescript';
import type { ApiModel, ChannelModel, JsonSchema, MethodModel, PayloadModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { schemaForWriter, tsComment, tsKey, tsString, tsTemplateText } from './escape';
import { payloadTypeOf, tsName } from '../model/naming';
import { patch, PatchFailed } from './patch';
import { untypedAsUnknown } from '../model/untyped-schemas';

export async function emitTypes(model: ApiModel): Promise<EmittedFile[]> {
  return [
    { slot: 'types', path: 'types.gen.ts', content: await emitSchemaTypes(model) },
    { slot: 'types', path: 'channels.gen.ts', content: emitChannelTypes(model) },
    { slot: 'types', path: 'methods.gen.ts', content: emitMethodTypes(model) },
  ];
}

const ROOT = '__ExchangeApiRoot';

/** Each named schema as json-schema-to-typescript reads it, under its name in the spec. */
function definitionsOf(model: ApiModel): Record<string, JsonSchema> {
  const definitions: Record<string, JsonSchema> = {};
  for (const t of model.types) {
    // Titled by the name the emitters refer to (tsName), which json-schema-to-typescript keeps as it is.
    const schema: JsonSchema = { ...openEmptyObjects(onlyRefs(model.schemas[t.name]!)), title: tsName(t.name) };
    // Open places stay open in the types too; everything else is closed so typos fail to compile.
    if (
      t.kind === 'open' &&
      (schema.type === 'object' || schema.type === undefined) &&
      schema.additionalProperties === undefined
    ) {
      if (schema.type === 'object') schema.additionalProperties = true;
    }
    if (t.notShown) schema.description = [schema.description, `Not shown: ${t.notShown}`].filter(Boolean).join('\n\n');
    // A schema naming no type is `unknown`, never an object type (model/untyped-schemas.ts).
    definitions[t.name] = untypedAsUnknown(
      schemaForWriter(schema, (k) => k === 'tsType' || k === 'tsEnumNames'),
    ) as JsonSchema;
  }
  return definitions;
}

async function emitSchemaTypes(model: ApiModel): Promise<string> {
  // No named schema: a module all the same, for the others' `import type * as T`.
  if (model.types.length === 0) return 'export {};\n';
  const definitions = definitionsOf(model);
  const root = {
    title: ROOT,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(model.types.map((t) => [t.name, { $ref: `#/definitions/${t.name}` }])),
    definitions,
  };
  const ts = await compile(root as never, ROOT, {
    bannerComment: '',
    declareExternallyReferenced: true,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
    $refOptions: {},
  });
  // The root only served to pull every definition into one compile; its notes name each definition
  // as the spec spells it, so they are removed by that exact text, whatever it holds.
  let withoutRoot = patch(ts, new RegExp(`export interface ${ROOT} \\{[\\s\\S]*?\\n\\}\\n`), '', {
    emitter: 'types (json-schema-to-typescript)',
    what: `remove the root interface ${ROOT}`,
  });
  for (const t of model.types) {
    const name = t.name.split('\n').join('\n * ');
    const note = `This interface was referenced by \`${ROOT}\`'s JSON-Schema\n * via the \`definition\` "${name}".\n`;
    // After a description (with its blank line), alone in its comment, or after a tag (`@deprecated`).
    withoutRoot = withoutRoot
      .split(` *\n * ${note}`)
      .join('')
      .split(`/**\n * ${note} */\n`)
      .join('')
      .split(` * ${note}`)
      .join('');
  }
  // A note written another way would stay, naming the root that is gone.
  if (withoutRoot.includes(`\`${ROOT}\`'s JSON-Schema`))
    throw new PatchFailed(
      `the types (json-schema-to-typescript) emitter could not remove the notes ` +
        `naming ${ROOT}: one is written in a form its patch does not know`,
    );
  return declaresEvery(withoutRoot.trimStart(), model);
}

/** The types json-schema-to-typescript wrote, checked to declare each schema under the name the others use. */
function declaresEvery(ts: string, model: ApiModel): string {
  const missing = model.types
    .map((t) => tsName(t.name))
    .filter((n) => !new RegExp(`^export (?:interface|type) ${n}\\b`, 'm').test(ts));
  if (missing.length > 0)
    throw new PatchFailed(
      `the types (json-schema-to-typescript) emitter did not declare ${missing.join(', ')}` +
        ` under the name the channels, methods and validators use`,
    );
  return ts;
}

/**
 * A `$ref` with annotations beside it (description, default) makes json-schema-to-typescript declare a
 * second copy of the referenced type; the type is the referenced one, so keep the ref alone.
 */
function onlyRefs(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const o = node as Record<string, unknown>;
    if (typeof o.$ref === 'string') return { $ref: o.$ref };
    return Object.fromEntries(
      Object.entries(o).map(([k, v]) => [k, k === 'examples' || k === 'default' || k === 'enum' ? v : walk(v)]),
    );
  };
  return walk(schema) as JsonSchema;
}

/**
 * An object schema that lists no properties at all (`{type: object}`, a free-form value) is open: closed
 * like the others it would be `{}`, whose fields no program can read. One that allows no property
 * (`maxProperties: 0`) stays closed.
 */
function openEmptyObjects(schema: JsonSchema): JsonSchema {
  const SHAPED = ['properties', 'patternProperties', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', '$ref'];
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const o = node as Record<string, unknown>;
    const out = Object.fromEntries(
      Object.entries(o).map(([k, v]) => [
        k,
        k === 'examples' || k === 'default' || k === 'enum' || k === 'const' ? v : walk(v),
      ]),
    );
    const isObject = o.type === 'object' || (Array.isArray(o.type) && o.type.includes('object'));
    if (isObject && o.maxProperties !== 0 && SHAPED.every((k) => o[k] === undefined)) out.additionalProperties = true;
    return out;
  };
  return walk(schema) as JsonSchema;
}

/** An address template as its fixed text and its parameters, in order: `a.{x}.b` → ['a.', x, '.b']. */
function addressParts(ch: ChannelModel): Array<string | ChannelModel['parameters'][number]> {
  const parts: Array<string | ChannelModel['parameters'][number]> = [];
  let rest = ch.address;
  for (const p of ch.parameters) {
    const i = rest.indexOf(`{${p.name}}`);
    parts.push(rest.slice(0, i), p);
    rest = rest.slice(i + p.name.length + 2);
  }
  return [...parts, rest];
}

/** A template literal of an address template, each parameter filled in by `fill` (an expression or a type). */
function addressTemplate(ch: ChannelModel, fill: (p: ChannelModel['parameters'][number], i: number) => string): string {
  let i = 0;
  const inside = addressParts(ch).map((part) =>
    typeof part === 'string' ? tsTemplateText(part) : '${' + fill(part, i++) + '}',
  );
  return '`' + inside.join('') + '`';
}

/** A template-literal type for an address template: parameters with an enum become unions. */
const addressType = (ch: ChannelModel): string =>
  addressTemplate(ch, (p) => (p.enum ? p.enum.map(tsString).join(' | ') : 'string'));

/**
 * The type parameter of each of a channel's parameters in its builder: the name in PascalCase, an
 * identifier whatever the spec calls it, each once and none named like the builder's own `Fill`.
 */
function typeParams(ch: ChannelModel): string[] {
  const used = new Set(['Fill']);
  return ch.parameters.map((p) => {
    let name = tsName(p.name) || 'P';
    while (used.has(name)) name += '_';
    used.add(name);
    return name;
  });
}

/**
 * The comments' examples, from this API's own first channel (another API's SDK must not show the
 * exchange's channels): `, e.g. PayloadOf<'…'>` with an example address, and `, e.g. channels.<id>({ … })`.
 */
function channelExamples(model: ApiModel): [string, string] {
  // A channel with parameters shows more of what a builder does.
  const ch = model.channels.find((c) => c.parameters.length > 0) ?? model.channels[0];
  if (!ch) return ['', ''];
  const address = ch.exampleAddresses.find((a): a is string => typeof a === 'string') ?? ch.address;
  const call = /^[A-Za-z_$][\w$]*$/.test(ch.id) ? `channels.${ch.id}` : `channels[${JSON.stringify(ch.id)}]`;
  const params = ch.parameters.length > 0 ? `{ ${ch.parameters.map((p) => p.name).join(', ')} }` : '';
  return [
    tsComment(`, e.g. \`PayloadOf<${JSON.stringify(address).replace(/^"|"$/g, "'")}>\``),
    tsComment(`, e.g. \`${call}(${params})\``),
  ];
}

/** One builder of `channels`: the address of a channel, its parameters filled in, typed. */
function channelBuilder(ch: ChannelModel): string[] {
  const doc = `  /** ${tsComment(`\`${ch.address}\`: ${ch.title} (${ch.access}).`)} */`;
  if (ch.parameters.length === 0)
    return [doc, `  ${tsKey(ch.id)}: (): ${tsString(ch.address)} => ${tsString(ch.address)},`];
  const names = typeParams(ch);
  const generics = ch.parameters.map(
    (p, i) => `${names[i]} extends ${p.enum ? `Fill<${p.enum.map(tsString).join(' | ')}>` : 'string | number'}`,
  );
  const paramsType = ch.parameters.map((p, i) => `${tsKey(p.name)}: ${names[i]}`).join('; ');
  const ret = addressTemplate(ch, (_p, i) => names[i]!);
  const body = addressTemplate(ch, (p) =>
    tsKey(p.name) === p.name ? `params.${p.name}` : `params[${tsString(p.name)}]`,
  );
  return [
    doc,
    `  ${tsKey(ch.id)}: <${generics.join(', ')}>(params: { ${paramsType} }): ${ret} =>`,
    `    ${body} as ${ret},`,
  ];
}

/** Payload type expression, in terms of the named types (several messages: their union). */
const payloadType = (p: PayloadModel): string => payloadTypeOf(p);

/** More specific templates first, so that a conditional type picks the right one. */
function bySpecificity(a: ChannelModel, b: ChannelModel): number {
  const score = (c: ChannelModel) =>
    c.address.replace(/\{[^}]+\}/g, '').length + 100 * c.parameters.filter((p) => p.enum).length;
  return score(b) - score(a) || a.id.localeCompare(b.id);
}

function emitChannelTypes(model: ApiModel): string {
  const lines: string[] = [`import type * as T from './types.gen';`, ''];
  for (const ch of model.channels) {
    lines.push(`/** ${tsComment(`Address of ${ch.title}: \`${ch.address}\` (${ch.access}).`)} */`);
    lines.push(`export type ${tsName(ch.id)}Address = ${addressType(ch)};`);
    lines.push(
      `/** ${tsComment(`Payload of \`${ch.address}\`${ch.payload.array ? ' (an array of records)' : ''}.`)} */`,
    );
    lines.push(`export type ${tsName(ch.id)}ChannelPayload = ${payloadType(ch.payload)};`);
  }
  lines.push('', '/** Every channel address this API serves. */');
  lines.push(
    `export type ChannelAddress =${model.channels.map((c) => `\n  | ${tsName(c.id)}Address`).join('') || ' never'};`,
  );
  lines.push('', '/** Payload type by channel id. */', 'export interface ChannelPayloads {');
  for (const ch of model.channels) lines.push(`  ${tsString(ch.id)}: ${tsName(ch.id)}ChannelPayload;`);
  lines.push('}', '', '/** Address type by channel id. */', 'export interface ChannelAddresses {');
  for (const ch of model.channels) lines.push(`  ${tsString(ch.id)}: ${tsName(ch.id)}Address;`);
  lines.push('}', '', '/** Channel id by address template. */', 'export interface ChannelTemplates {');
  for (const ch of model.channels) lines.push(`  ${tsString(ch.address)}: ${tsString(ch.id)};`);
  lines.push('}');
  const ordered = [...model.channels].sort(bySpecificity);
  lines.push('', '/** The channel id of a filled-in address, or never when it matches no template. */');
  const cases = ordered.map((c) => `\n  A extends ${tsName(c.id)}Address ? ${tsString(c.id)} :`);
  lines.push(`export type ChannelIdOf<A extends string> =${cases.join('')}\n  never;`);
  const [example, builder] = channelExamples(model);
  lines.push('', `/** The payload type of a filled-in address${example}. */`);
  lines.push(
    'export type PayloadOf<A extends string> = ChannelIdOf<A> extends keyof ChannelPayloads ' +
      '? ChannelPayloads[ChannelIdOf<A>] : never;',
  );
  lines.push('', '/** A value that may fill a parameter: enumerated parameters also take their numeric spelling. */');
  lines.push('type Fill<V extends string> = V | (V extends `${infer N extends number}` ? N : never);');
  lines.push('', `/** Builders: each returns its channel's address, typed${builder}. */`);
  lines.push('export const channels = {');
  for (const ch of model.channels) lines.push(...channelBuilder(ch));
  lines.push('} as const;');
  return lines.join('\n') + '\n';
}

function emitMethodTypes(model: ApiModel): string {
  const typeOf = (p: PayloadModel) => payloadType(p);
  const lines: string[] = [`import type * as T from './types.gen';`, ''];
  lines.push('/** Params and result of every method, by JSON-RPC method name. */', 'export interface Methods {');
  for (const m of model.methods) {
    const summary = tsComment(m.summary.split(/[\n\r\u2028\u2029]/)[0]!);
    if (summary) lines.push(`  /** ${summary} */`);
    lines.push(`  ${tsString(m.name)}: {`);
    lines.push(`    params: ${typeOf(m.params)};`);
    lines.push(`    result: ${typeOf(m.result)};`);
    lines.push(`    /** The params shape our sandbox and client assume where the document does not show one. */`);
    lines.push(`    assumedParams: ${m.assumedParams ? `T.${tsName(m.assumedParams)}` : typeOf(m.params)};`);
    lines.push(`    assumedResult: ${m.assumedResult ? `T.${tsName(m.assumedResult)}` : typeOf(m.result)};`);
    lines.push('  };');
  }
  lines.push('}', '', 'export type MethodName = keyof Methods;');
  const names = (pick: (m: MethodModel) => boolean) => union(model.methods.filter(pick).map((m) => tsString(m.name)));
  lines.push(`export type WsMethodName = ${names((m) => m.transports.includes('ws'))};`);
  lines.push(`export type HttpMethodName = ${names((m) => m.transports.includes('http'))};`);
  lines.push(`export type OrderFlowMethodName = ${names((m) => m.orderFlow)};`);
  lines.push("export type ParamsOf<M extends MethodName> = Methods[M]['params'];");
  lines.push("export type ResultOf<M extends MethodName> = Methods[M]['result'];");
  return lines.join('\n') + '\n';
}

const union = (items: string[]) => (items.length ? items.join(' | ') : 'never');
