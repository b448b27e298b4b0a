/**
 * Emitter: model → tables, the run-time description of channels, methods, limits, errors and login
 * that the client, the sandbox and the conformance runner read instead of keeping copies.
 */
import type { ApiModel } from '../model/types';
import type { EmittedFile } from './emitted-file';

export function emitTables(model: ApiModel): EmittedFile[] {
  const body = tableParts(model)
    // A table the spec does not have is null (a const assertion cannot apply to null).
    .map(([name, doc, value]) => {
      const literal = value === null ? 'null' : `${JSON.stringify(value, null, 2)} as const`;
      return `/** ${doc} */\nexport const ${name} = ${literal};\n`;
    })
    .join('\n');
  const types = [
    'export type ChannelEntry = (typeof channelTable)[number];',
    'export type MethodEntry = (typeof methodTable)[number];',
    'export type LimitEntry = (typeof limitTable)[number];',
    "export type ErrorEntry = (typeof errorTable)['codes'][number];",
  ].join('\n');
  return [{ slot: 'types', path: 'tables.gen.ts', content: body + '\n' + types + '\n' }];
}

/** Each channel's address template, parameter enumerations, access and payload shape. */
const channelRows = (model: ApiModel) =>
  model.channels.map((c) => ({
    id: c.id,
    address: c.address,
    title: c.title,
    access: c.access,
    parameters: c.parameters.map((p) => ({ name: p.name, enum: p.enum })),
    payload: { record: c.payload.record, array: c.payload.array },
    notShown: c.notShown ?? null,
  }));

/** Each method's params and result records and its policy: rate limits, transports, auth, order flow. */
const methodRows = (model: ApiModel) =>
  model.methods.map((m) => ({
    id: m.id,
    name: m.name,
    params: m.params.record,
    result: m.result.record,
    assumedParams: m.assumedParams,
    assumedResult: m.assumedResult,
    rateLimitClass: m.rateLimitClass,
    rateLimitBudget: m.rateLimitBudget,
    rateLimitRule: m.rateLimitRule,
    transports: m.transports,
    httpPath: m.httpPath,
    auth: m.auth,
    orderFlow: m.orderFlow,
    rateLimitKey: m.rateLimitKey,
    actionModule: m.actionModule,
    actionData: m.actionData,
    source: m.source,
  }));

/** Each named schema with its fields (records) or values (enumerations). */
const recordRows = (model: ApiModel) =>
  model.types.map((t) => ({
    name: t.name,
    kind: t.kind,
    fields: (t.fields ?? []).map((f) => ({ name: f.name, required: f.required, nullable: f.nullable, type: f.type })),
    values: t.values ?? null,
    notShown: t.notShown ?? null,
  }));

/** Every table: its name, its doc comment and its value (null when the spec has no such table). */
function tableParts(model: ApiModel): Array<[string, string, unknown]> {
  return [
    [
      'apiInfo',
      'Title, version and source of the spec the tables were generated from.',
      { title: model.title, version: model.version, source: model.source },
    ],
    [
      'serverTable',
      'The servers: secure WebSocket deployments and the HTTP base.',
      model.servers.map(({ description: _d, variableDefaults: _v, ...s }) => s),
    ],
    [
      'channelTable',
      'Every subscription channel: address template, parameter enumerations, access, payload shape.',
      channelRows(model),
    ],
    ['methodTable', 'Every JSON-RPC method: params and result, rate-limit class, transports, auth.', methodRows(model)],
    ['recordTable', 'Every named schema with its fields (records) or values (enumerations).', recordRows(model)],
    ['rateLimitClassTable', 'The tier-1 rate-limit classes.', model.rateLimitClasses],
    [
      'limitTable',
      'The limits with their reference values (deployment-specific; the live budget is authoritative).',
      model.limits,
    ],
    ['errorTable', "The error codes: the document's two, the reserved range and our assumed codes.", model.errors],
    ['loginTable', 'Login: header names, the signed message, the freshness window, re-verification.', model.login],
    [
      'actionSignatureTable',
      'The EIP-712 layout of state-changing actions (an assumption: the document does not show it).',
      model.actionSignature,
    ],
    ['assumptionTable', 'Every assumption the spec makes, with the places that cite it.', model.assumptions],
    ['notShownTable', 'Every place the document leaves open.', model.notShown],
  ];
}
