/**
 * Emitter: model → README.md of a generated SDK: install (from our packages' tarballs until they are
 * published), connect, subscribe, call, the channel and method lists, and what of @exchange-api/client
 * works for this spec, computed from it (emit/sdk-client.ts, clientReach). Spec text reaches the
 * Markdown only through emit/markdown-escape.ts.
 */
import type { ApiModel, ChannelModel, MethodModel, PayloadModel, ServerModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { TOOLKIT_VERSION, type PackageSettings } from './package';
import { payloadTypeOf } from '../model/naming';
import { tsKey, tsString } from './escape';
import { mdCell, mdCodeFence, mdCodeSpan, mdProse, mdText } from '../text/markdown-escape';
import { clientReach, type ClientReach } from './sdk-client';
import { DEFAULT_FRAMES } from '../model/plain-spec';
import { messageExample, messageSupport } from './package-readme-messages';
import { exampleValue } from './example-value';

export { exampleValue };

/** An example address of a channel: enumerated parameters take their first value, others their name. */
function exampleAddress(c: ChannelModel): string {
  return c.address.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => c.parameters.find((p) => p.name === name)?.enum?.[0] ?? `<${name}>`,
  );
}

/** A channel builder call for the example: `channels.readings({ region: '<region>', unit: 'celsius' })`. */
function builderCall(c: ChannelModel): string {
  const id = /^[A-Za-z_$][\w$]*$/.test(c.id) ? `.${c.id}` : `[${tsString(c.id)}]`;
  const params = c.parameters.map((p) => `${tsKey(p.name)}: ${tsString(p.enum?.[0] ?? `<${p.name}>`)}`).join(', ');
  return `channels${id}(${params ? `{ ${params} }` : ''})`;
}

/**
 * How the client reaches a method of the rpc map: `rpc.lookup`, or `rpc['reserve-item']` for an id that is no
 * identifier.
 */
const rpcMember = (id: string) => (/^[A-Za-z_$][\w$]*$/.test(id) ? `rpc.${id}` : `rpc[${tsString(id)}]`);

/**
 * The type a payload has in this package (the generated names: `Tick.v2` is `TickV2`), or null when it is
 * `unknown`.
 */
function typeName(p: PayloadModel): string | null {
  const t = payloadTypeOf(p, '');
  return t === 'unknown' ? null : t;
}

/**
 * A server's URL with its variables filled with their defaults (or first enum value); `<name>` where the spec
 * gives none.
 */
function serverUrl(s: ServerModel): string {
  const fill = (text: string) =>
    text.replace(/\{([^}]+)\}/g, (_, name: string) => s.variableDefaults?.[name] ?? `<${name}>`);
  return `${s.protocol}://${fill(s.host)}${fill(s.pathname)}`;
}

const listed = (names: string[]) => names.map(mdCodeSpan).join(', ');

/** Why nothing of the client reaches this API, said from the spec. */
function nothingReaches(model: ApiModel, reach: ClientReach): string[] {
  const why: string[] = [];
  if (reach.unreachable.length > 0)
    why.push(
      `its servers speak ${listed([...new Set(reach.unreachable.map((s) => s.protocol))])}, not WebSocket or HTTP`,
    );
  if (!reach.ws && model.channels.length > 0)
    why.push('its channels would need a WebSocket server (`ws`, `wss`), and it names none');
  if (model.methods.length === 0) why.push('it has no method (no operation the client sends and gets a reply to)');
  else if (reach.methods.length === 0) why.push('none of its methods is served over a transport of those servers');
  return [
    `Nothing of \`@exchange-api/client\` reaches this API: ${why.join('; ')}. ` +
      `So this package generates no \`createClient\`: it gives the types, validators ` +
      `and tables of its messages, for the transport of your choice (\`is.<Type>\`, ` +
      `\`channelsValidators\`, \`paramsValidators\`, \`resultsValidators\`).`,
  ];
}

/** The frames the client sends and expects, and whether the spec says so or they are assumed. */
function framesLine(reach: ClientReach): string {
  return reach.framesStated
    ? 'This spec marks its JSON-RPC frames (`x-role`), so the client speaks what the spec says.'
    : 'This spec does not say how its messages are framed (no `x-role`): JSON-RPC ' +
        '2.0 is assumed. A server that does not speak JSON-RPC 2.0 gets none of `call`, ' +
        '`rpc.*`, `subscribe` and `stream` (its types and validators still apply).';
}

/** The calls line: which methods a call reaches. */
function callsLine(model: ApiModel, reach: ClientReach): string[] {
  if (reach.methods.length === 0)
    return [
      model.methods.length === 0
        ? '- **Calls**: this spec has no method, so the client has no `call` and no `rpc`.'
        : "- **Calls**: none of this spec's methods is served over a transport of its " +
          'servers, so the client has no `call` and no `rpc`.',
    ];
  const left = model.methods.filter((m) => !reach.methods.includes(m));
  const which =
    left.length === 0
      ? `the ${reach.methods.length === 1 ? 'method' : `${reach.methods.length} methods`} of this spec`
      : `${listed(reach.methods.map((m) => m.name))} (not ${listed(left.map((m) => m.name))}` +
        `: no server of theirs the client reaches)`;
  return [
    `- **Calls** (\`call\`, \`rpc.*\`) for ${which}: a JSON-RPC request \`{jsonrpc, ` +
      `id, method, params}\` answered by \`{id, result}\` or \`{id, error}\`; results ` +
      `are validated against the spec.`,
  ];
}

/** The subscriptions line. */
function streamsLine(model: ApiModel, reach: ClientReach): string[] {
  if (!reach.streams)
    return [
      model.channels.length === 0
        ? '- **Subscriptions**: this spec has no channel, so the client has no `subscribe` and no `stream`.'
        : '- **Subscriptions**: its channels need a WebSocket server and the spec names ' +
          'none, so the client has no `subscribe` and no `stream`.',
    ];
  const subscribe = model.methods.find((m) => m.id === model.roles.subscribe);
  return [
    `- **Subscriptions** (\`subscribe\`, \`stream\`): the client sends the method ` +
      `${mdCodeSpan(subscribe?.name ?? DEFAULT_FRAMES.subscribe)} (and ${mdCodeSpan(DEFAULT_FRAMES.unsubscribe)}` +
      `) with params \`{"channels": [<address>, …]}\`, expects the result \`{"status": ` +
      `{"<address>": "ok"}, "current_subscriptions": [ … ]}\`, and takes pushed ` +
      `frames \`{"jsonrpc": "2.0", "method": "${DEFAULT_FRAMES.notification}", ` +
      `"params": {"channel": "<address>", "data": <payload>}}\`` +
      (model.roles.subscribe
        ? ' (the frames this spec marks with `x-role`).'
        : ', the conventions of the exchange-api spec, assumed.'),
  ];
}

/** Which parts of the client work for this spec, said plainly. */
function clientSupport(model: ApiModel, reach: ClientReach): string[] {
  const head = ['## What of the client works for this API', ''];
  if (reach.methods.length === 0 && !reach.streams) return [...head, ...nothingReaches(model, reach), ''];
  return [
    ...head,
    'The client is the core of `@exchange-api/client` (`createApiClient`), which ' +
      'knows no API of its own: this package gives it its tables and validators, ' +
      'and types it by its method and channel maps (no cast). It speaks JSON-RPC ' +
      '2.0 over one WebSocket (and HTTP POST for the methods the spec serves over `http`). ' +
      framesLine(reach),
    '',
    ...callsLine(model, reach),
    ...streamsLine(model, reach),
    ...(model.login || model.actionSignature
      ? [
          '- **Login and signed order flow** are those of the exchange-api interface ' +
            '(`x-login`, `x-action-signature`), which this spec describes.',
        ]
      : []),
    "- **The client-side rate limiter** reads this spec's budgets (`x-limits`, `x-rate-limit-classes`): " +
      (model.rateLimitClasses.length > 0 && model.limits.some((l) => l.kind === 'window')
        ? "calls wait for room in their class's window instead of being refused, and " +
          "a refusal with a short retry hint (the client's window and the server's " +
          'disagreeing at a boundary) is waited out and sent again, at most twice (the ' +
          "limiter's `rateLimitRetries`, `rateLimitRetryMaxMs`)."
        : 'this spec has none, so nothing is throttled.'),
    "- **Error classes** follow this spec's error table (`x-errors`): " +
      (model.errors.codes.length > 0
        ? 'a code of kind `rate-limit` (or in a reserved range holding one) is a `RateLimitError` ' +
          '(its `data` template gives `retryAfterMs`, and the limiter holds the budget ' +
          'that long), `connection-limit` a `ConnectionLimitError`, `auth` an `AuthError`; ' +
          'any other code is a plain `RpcError`.'
        : 'this spec has none, so every error answer is a plain `RpcError`.'),
    '- **Reconnects, timeouts, bounded streams and validation modes** work for any API.',
    ...unreachable(reach),
    '',
  ];
}

/** The servers the client cannot connect to: their protocol is neither WebSocket nor HTTP. */
function unreachable(reach: ClientReach): string[] {
  if (reach.unreachable.length === 0) return [];
  const names = reach.unreachable.map((s) => `${mdCodeSpan(s.id)} (${mdCodeSpan(serverUrl(s))})`).join(', ');
  return [
    `- **Servers**: the client connects over WebSocket (\`ws\`, \`wss\`) and ` +
      `HTTP (\`http\`, \`https\`) only, so it cannot connect to ${names}; the types, ` +
      `validators and tables of this package still describe their messages.`,
  ];
}

const typeCell = (t: string | null) => (t ? mdCell(mdCodeSpan(t)) : '—');

/** The channel and method tables. */
/**
 * Where the methods come from and which sign, when the spec says so: how many its document shows, how
 * many are typed from what its public clients send and read (`x-source: clients`), how many carry an action signature.
 */
function coverage(methods: MethodModel[]): string[] {
  const fromClients = methods.filter((m) => m.source === 'clients').length;
  const signed = methods.filter((m) => m.actionModule !== null).length;
  const parts = [
    ...(fromClients > 0
      ? [
          `${methods.length - fromClients} shown by the API's document and ${fromClients} typed from ` +
            'what its public clients send and read (`x-source: clients`)',
        ]
      : []),
    ...(signed > 0 ? [`${signed} carry an action signature (\`x-action-module\`)`] : []),
  ];
  return parts.length > 0 ? [`${methods.length} methods: ${parts.join('; ')}.`, ''] : [];
}

function lists(model: ApiModel): string[] {
  const out = ['## Channels', ''];
  if (model.channels.length === 0) out.push('This API has no subscription channels.', '');
  else {
    out.push('| Address | Payload | Access | Title |', '|---|---|---|---|');
    for (const c of model.channels)
      out.push(
        `| ${mdCell(mdCodeSpan(c.address))} | ${typeCell(typeName(c.payload) ?? 'unknown')}` +
          ` | ${c.access} | ${mdCell(mdText(c.title))} |`,
      );
    out.push('');
  }
  out.push('## Methods', '');
  if (model.methods.length === 0) out.push('This API has no methods.', '');
  else {
    out.push(...coverage(model.methods));
    out.push('| Method | Call | Params | Result | Transports | Summary |', '|---|---|---|---|---|---|');
    for (const m of model.methods)
      out.push(
        `| ${mdCell(mdCodeSpan(m.name))} | ${mdCell(mdCodeSpan(rpcMember(m.id)))}` +
          ` | ${typeCell(typeName(m.params))} | ${typeCell(typeName(m.result))} | ${m.transports.join(', ')}` +
          ` | ${mdCell(mdText(m.summary || m.description))} |`,
      );
    out.push('');
  }
  return out;
}

/**
 * How to install: our packages are not on the npm registry yet (a plain `npm install` gives E404 for
 * `@exchange-api/client`), so they are packed from a clone into a folder `mkdir -p` makes, and
 * installed from there, as the exchange-api repository's README says.
 */
function install(settings: PackageSettings): string[] {
  const tgz = `${settings.name.replace(/^@/, '').replace('/', '-')}-${settings.version}.tgz`;
  const ours = `$T/exchange-api-{client,validators,types,auth}-${TOOLKIT_VERSION}.tgz`;
  return [
    '## Install',
    '',
    'The `@exchange-api/*` packages this one depends on are not on the npm registry ' +
      'yet: a plain `npm install` here fails (E404 for `@exchange-api/client`). ' +
      'Until they are, pack them from a clone of the exchange-api repository into ' +
      'a folder and install those tarballs:',
    '',
    mdCodeFence(
      [
        '# in the exchange-api repository: its publishable packages as tarballs, in a folder made first',
        'T=/tmp/exchange-api-tarballs',
        'mkdir -p "$T" && npm pack --workspace packages --workspace tools/codegen --pack-destination "$T"',
        '# in this folder: our packages from the tarballs (--no-save keeps package.json as generated), the',
        '# rest (tsup, typescript, ajv) from the registry; then build and pack (tsup: ESM, CommonJS, declarations)',
        `npm install --no-save ${ours}`,
        `npm pack                      # writes ${tgz}`,
        '# in your project: this package and our tarballs in one install',
        `npm install <this folder>/${tgz} ${ours}`,
      ].join('\n'),
      'sh',
    ),
    '',
    `Once they are published, \`npm install && npm pack\` here and \`npm install ` +
      `./${tgz}\` in your project are all it takes.`,
    '',
  ];
}

/** The params of the README's call: the spec's first params example, else a value built from the params schema. */
function callParams(method: MethodModel, model: ApiModel): string {
  const value =
    method.paramsExamples.length > 0
      ? method.paramsExamples[0]
      : exampleValue(method.params.schema, model.schemas, 'params');
  return JSON.stringify(value ?? {});
}

/** The example: connect, then stream a channel and call a method, as far as they reach this API. */
function example(model: ApiModel, settings: PackageSettings, reach: ClientReach): string[] {
  if (reach.methods.length === 0 && !reach.streams) return [];
  const server = model.servers.find((s) => /^wss?$/i.test(s.protocol));
  const url = server ? serverUrl(server) : 'wss://<host>/<path>';
  const channel = reach.streams ? model.channels[0] : undefined;
  const method: MethodModel | undefined = reach.methods[0];
  const code = [
    `import { createClient${channel ? ', channels' : ''} } from ${tsString(settings.name)};`,
    '',
    `const client = createClient({ wsUrl: ${tsString(url)}, validate: 'strict' });`,
    'await client.connect();',
    ...(channel ? ['', `for await (const payload of client.stream(${builderCall(channel)})) {`] : []),
    ...(channel ? ['  console.log(payload); // typed by the channel', '  break;', '}'] : []),
    ...(method
      ? [
          '',
          `const result = await client.${rpcMember(method.id)}(${callParams(method, model)});`,
          'console.log(result); // typed by the method map',
        ]
      : []),
    'await client.close();',
  ];
  return [
    `## Connect${channel ? ', subscribe' : ''}${method ? ', call' : ''}`,
    '',
    mdCodeFence(code.join('\n'), 'ts'),
    '',
    ...(channel
      ? [`A filled-in address is typed too: ${mdCodeSpan(`client.stream(${tsString(exampleAddress(channel))})`)}.`, '']
      : []),
  ];
}

/** README.md of the SDK (slot `package`). */
export function emitPackageReadme(model: ApiModel, settings: PackageSettings, regenerate: string): EmittedFile[] {
  const reach = clientReach(model);
  const lines = [
    `# ${mdText(settings.name)}`,
    '',
    `${mdText(`${model.title} ${model.version}`)}: types, standalone validators, ` +
      `tables${reach.methods.length > 0 || reach.streams || model.wire ? ' and a typed client' : ''}` +
      `, generated from its AsyncAPI spec (${mdCodeSpan(model.source)}) by \`@exchange-api/codegen\`. ` +
      `Regenerate with ${mdCodeSpan(regenerate)} in this folder.`,
    '',
    mdProse(model.description),
    '',
    ...install(settings),
    ...(model.wire ? messageExample(model, model.wire, settings.name) : example(model, settings, reach)),
    model.wire
      ? 'Also exported: every record and enumeration as a type, `Operations` (each ' +
        "operation's payload, reply, `params` and `query`), `wireTable`, the validators " +
        '(`messagesValidators`, `is.<Type>`), and the tables every SDK has (`channelTable`, ' +
        '`methodTable`, …).'
      : 'Also exported: every record and enumeration as a type, `Methods`, `ChannelAddress`, ' +
        '`PayloadOf<A>`, the tables (`channelTable`, `methodTable`, …) and the validators ' +
        '(`channelsValidators`, `paramsValidators`, `resultsValidators`, `is.<Type>`).',
    ...(settings.docs ? ['', 'The documentation site is in `docs/` (open `docs/index.html`).'] : []),
    '',
    ...(model.wire ? messageSupport(model, model.wire) : clientSupport(model, reach)),
    ...lists(model),
  ];
  return [{ slot: 'package', path: 'README.md', content: lines.join('\n') }];
}
