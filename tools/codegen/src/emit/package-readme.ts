/**
 * Emitter: model → README.md of a generated SDK: install, connect, subscribe, call, the channel and
 * method lists, and what of @exchange-api/client works for this spec.
 */
import type { ApiModel, ChannelModel, PayloadModel, ServerModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import type { PackageSettings } from './package';
import { payloadTypeOf } from '../model/naming';
import { tsString } from './escape';

const cell = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** An example address of a channel: enumerated parameters take their first value, others their name. */
function exampleAddress(c: ChannelModel): string {
  return c.address.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => c.parameters.find((p) => p.name === name)?.enum?.[0] ?? `<${name}>`,
  );
}

/** A channel builder call for the example: `channels.readings({ region: '<region>', unit: 'celsius' })`. */
function builderCall(c: ChannelModel): string {
  const id = /^[A-Za-z_$][\w$]*$/.test(c.id) ? `.${c.id}` : `[${JSON.stringify(c.id)}]`;
  const params = c.parameters.map((p) => `${p.name}: ${JSON.stringify(p.enum?.[0] ?? `<${p.name}>`)}`).join(', ');
  return `channels${id}(${params ? `{ ${params} }` : ''})`;
}

/** How the client reaches a method of the rpc map: `rpc.lookup`, or `rpc['reserve-item']` for an id that is no identifier. */
const rpcMember = (id: string) => (/^[A-Za-z_$][\w$]*$/.test(id) ? `rpc.${id}` : `rpc[${tsString(id)}]`);

/** The type a payload has in this package (the generated names: `Tick.v2` is `TickV2`), or null when it is `unknown`. */
function typeName(p: PayloadModel): string | null {
  const t = payloadTypeOf(p, '');
  return t === 'unknown' ? null : t;
}

/** The protocols the client speaks: WebSocket, and HTTP for methods served over it. */
const CLIENT_PROTOCOLS = /^(wss?|https?)$/i;

/** A server's URL with its variables filled with their defaults (or first enum value); `<name>` where the spec gives none. */
function serverUrl(s: ServerModel): string {
  const fill = (text: string) =>
    text.replace(/\{([^}]+)\}/g, (_, name: string) => s.variableDefaults?.[name] ?? `<${name}>`);
  return `${s.protocol}://${fill(s.host)}${fill(s.pathname)}`;
}

/** Which parts of the client work for this spec, said plainly. */
function clientSupport(model: ApiModel): string[] {
  const followsOurs = model.roles.subscribe !== null && model.roles.notificationFrame !== null;
  return [
    '## What of the client works for this API',
    '',
    "The client is `@exchange-api/client`, driven by this package's tables and validators. It speaks JSON-RPC 2.0 over one WebSocket (and HTTP POST for the methods the spec serves over `http`).",
    '',
    '- **Calls** (`call`, `rpc.*`) work for every method: a JSON-RPC request `{jsonrpc, id, method, params}` answered by `{id, result}` or `{id, error}`; results are validated against the spec.',
    '- **Subscriptions** (`subscribe`, `stream`) work when the server follows the conventions of the exchange-api spec: the client sends the method `subscribe` (and `unsubscribe`) with params `{"channels": [<address>, …]}`, expects the result `{"status": {"<address>": "ok"}, "current_subscriptions": [ … ]}`, and takes pushed frames `{"jsonrpc": "2.0", "method": "subscription", "params": {"channel": "<address>", "data": <payload>}}`.',
    followsOurs
      ? '  This spec marks its subscribe method and notification frame (`x-role`), as those conventions ask.'
      : '  This spec does not say how it subscribes (no `x-role`): the conventions above are assumed. A server that subscribes or pushes differently gets calls, types and validators from this package, but not `subscribe` / `stream`.',
    '- **Login and signed order flow** are those of the exchange-api interface (`x-login`, `x-action-signature`)' +
      (model.login
        ? '; this spec describes a login.'
        : '; this spec has neither, so `login()` and signed actions do not apply.'),
    "- **The client-side rate limiter** reads this spec's budgets (`x-limits`, `x-rate-limit-classes`): " +
      (model.rateLimitClasses.length > 0 && model.limits.some((l) => l.kind === 'window')
        ? "calls wait for room in their class's window instead of being refused."
        : 'this spec has none, so nothing is throttled.'),
    "- **Error classes** follow this spec's error table (`x-errors`): " +
      (model.errors.codes.length > 0
        ? 'a code of kind `rate-limit` (or in a reserved range holding one) is a `RateLimitError` (its `data` template gives `retryAfterMs`, and the limiter holds the budget that long), `connection-limit` a `ConnectionLimitError`, `auth` an `AuthError`; any other code is a plain `RpcError`.'
        : 'this spec has none, so every error answer is a plain `RpcError`.'),
    '- **Reconnects, timeouts, bounded streams and validation modes** work for any API.',
    ...unreachable(model),
    '',
  ];
}

/** The servers the client cannot connect to: their protocol is neither WebSocket nor HTTP. */
function unreachable(model: ApiModel): string[] {
  const others = model.servers.filter((s) => !CLIENT_PROTOCOLS.test(s.protocol));
  if (others.length === 0) return [];
  const names = others.map((s) => `\`${s.id}\` (\`${serverUrl(s)}\`)`).join(', ');
  return [
    `- **Servers**: the client connects over WebSocket (\`ws\`, \`wss\`) and HTTP (\`http\`, \`https\`) only, so it cannot connect to ${names}; the types, validators and tables of this package still describe their messages.`,
  ];
}

/** The channel and method tables. */
function lists(model: ApiModel): string[] {
  const out = ['## Channels', ''];
  if (model.channels.length === 0) out.push('This API has no subscription channels.', '');
  else {
    out.push('| Address | Payload | Access | Title |', '|---|---|---|---|');
    for (const c of model.channels) {
      const t = typeName(c.payload);
      out.push(`| \`${c.address}\` | ${t ? `\`${cell(t)}\`` : '`unknown`'} | ${c.access} | ${cell(c.title)} |`);
    }
    out.push('');
  }
  out.push('## Methods', '');
  if (model.methods.length === 0) out.push('This API has no methods.', '');
  else {
    out.push('| Method | Call | Params | Result | Transports | Summary |', '|---|---|---|---|---|---|');
    for (const m of model.methods) {
      const params = typeName(m.params);
      const result = typeName(m.result);
      out.push(
        `| \`${m.name}\` | \`${cell(rpcMember(m.id))}\` | ${params ? `\`${cell(params)}\`` : '—'} | ${result ? `\`${cell(result)}\`` : '—'} | ${m.transports.join(', ')} | ${cell(m.summary || m.description)} |`,
      );
    }
    out.push('');
  }
  return out;
}

/** README.md of the SDK (slot `package`). */
export function emitPackageReadme(model: ApiModel, settings: PackageSettings, regenerate: string): EmittedFile[] {
  const server = model.servers.find((s) => /^wss?$/i.test(s.protocol));
  const url = server ? serverUrl(server) : 'wss://<host>/<path>';
  const channel = model.channels[0];
  const method = model.methods[0];
  const lines = [
    `# ${settings.name}`,
    '',
    `${model.title} ${model.version}: types, standalone validators, tables and a typed client, generated from its AsyncAPI spec (\`${model.source}\`) by \`@exchange-api/codegen\`. Regenerate with \`${regenerate}\` in this folder.`,
    '',
    model.description,
    '',
    '## Install',
    '',
    '```sh',
    'npm install                   # in this folder: the build tools (tsup, typescript) and the dependencies',
    `npm pack                      # builds (tsup: ESM, CommonJS, declarations) and writes ${settings.name.replace(/^@/, '').replace('/', '-')}-${settings.version}.tgz`,
    `npm install ./${settings.name.replace(/^@/, '').replace('/', '-')}-${settings.version}.tgz   # in your project (brings @exchange-api/client)`,
    '```',
    '',
    '## Connect, subscribe, call',
    '',
    '```ts',
    `import { createClient${channel ? ', channels' : ''} } from '${settings.name}';`,
    '',
    `const client = createClient({ wsUrl: '${url}', validate: 'strict' });`,
    'await client.connect();',
    ...(channel
      ? [
          '',
          `for await (const payload of client.stream(${builderCall(channel)})) {`,
          '  console.log(payload); // typed by the channel',
          '  break;',
          '}',
        ]
      : []),
    ...(method
      ? [
          '',
          `const result = await client.${rpcMember(method.id)}(${method.paramsExamples.length > 0 ? JSON.stringify(method.paramsExamples[0]) : '{} as never /* params: see Methods */'});`,
          'console.log(result); // typed by the method map',
        ]
      : []),
    'await client.close();',
    '```',
    '',
    ...(channel ? [`A filled-in address is typed too: \`client.stream('${exampleAddress(channel)}')\`.`, ''] : []),
    'Also exported: every record and enumeration as a type, `Methods`, `ChannelAddress`, `PayloadOf<A>`, the tables (`channelTable`, `methodTable`, …) and the validators (`channelsValidators`, `paramsValidators`, `resultsValidators`, `is.<Type>`).',
    ...(settings.docs ? ['', 'The documentation site is in `docs/` (open `docs/index.html`).'] : []),
    '',
    ...clientSupport(model),
    ...lists(model),
  ];
  return [{ slot: 'package', path: 'README.md', content: lines.join('\n') }];
}
