/**
 * The README sections of an SDK whose spec speaks its own messages (model.wire): calls that work
 * against the API (a request, a stream, a send, by the spec's own operation ids, with their address
 * parameters), and what the client does for it. Spec text reaches the Markdown only through
 * text/markdown-escape.ts.
 */
import type { ApiModel } from '../model/types';
import type { WireModel, WireOperation } from '../model/types';
import { payloadTypeOf } from '../model/naming';
import { tsKey, tsString } from './escape';
import { mdCell, mdCodeFence, mdCodeSpan } from '../text/markdown-escape';
import { exampleValue } from './example-value';

/**
 * The payload of the README's call: the message's first example its schema is meant for, else one built from its
 * schema.
 */
function payloadOf(model: ApiModel, wire: WireModel, op: WireOperation): string {
  const message = wire.messages.find((m) => m.id === op.messages[0]);
  if (!message) return '{}';
  const value = message.examples.length > 0 ? message.examples[0] : exampleValue(message.payload.schema, model.schemas);
  return JSON.stringify(value ?? {});
}

/** `{ params: { symbol: 'btcusd' } }` for an operation whose address has parameters, else ''. */
function addressOptions(model: ApiModel, wire: WireModel, op: WireOperation): string {
  const channel = wire.channels.find((c) => c.id === op.channel);
  if (!channel || channel.parameters.length === 0) return '';
  const described = model.channels.find((c) => c.id === op.channel);
  const params = channel.parameters.map((name) => {
    const first = described?.parameters.find((p) => p.name === name)?.enum?.[0];
    return `${tsKey(name)}: ${tsString(first ?? `<${name}>`)}`;
  });
  return `{ params: { ${params.join(', ')} } }`;
}

/** A request's id and payload, as the example passes them. */
const requestArgs = (model: ApiModel, wire: WireModel, request: WireOperation) =>
  `${tsString(request.id)}, ${payloadOf(model, wire, request)}`;

/** How the example's reply is found, said in its comment. */
const replyNote = (request: WireOperation) =>
  request.correlation
    ? `matched by ${request.correlation}, filled in when left out`
    : 'the next frame that fits the reply';

/** The example: create the client, then a request, a stream and a send, as far as the spec has them. */
export function messageExample(model: ApiModel, wire: WireModel, packageName: string): string[] {
  const server = wire.servers.find((s) => s.ws);
  const request = wire.operations.find((o) => o.action === 'send' && o.reply);
  const receive = wire.operations.find((o) => o.action === 'receive');
  const send = wire.operations.find((o) => o.action === 'send' && !o.reply);
  const withOptions = (op: WireOperation, first: string) => {
    const options = addressOptions(model, wire, op);
    return options ? `${first}, ${options}` : first;
  };
  const code = [
    `import { createClient } from ${tsString(packageName)};`,
    '',
    `const client = createClient({ url: ${tsString(server?.url ?? 'wss://<host>/<path>')}, validate: 'strict' });`,
    "client.on('error', (err) => console.error(err.message)); // a frame no operation takes, garbage",
    ...(request
      ? [
          '',
          `const reply = await client.request(${withOptions(request, requestArgs(model, wire, request))});`,
          `console.log(reply); // ${replyNote(request)}`,
        ]
      : []),
    ...(receive
      ? [
          '',
          `for await (const message of client.stream(${withOptions(receive, tsString(receive.id))})) {`,
          '  console.log(message); // typed by the operation',
          '  break;',
          '}',
        ]
      : []),
    ...(send
      ? ['', `await client.send(${withOptions(send, `${tsString(send.id)}, ${payloadOf(model, wire, send)}`)});`]
      : []),
    'await client.close();',
  ];
  return ['## Connect, request, stream, send', '', mdCodeFence(code.join('\n'), 'ts'), ''];
}

/** What the client does for this spec, and the operations it reaches. */
export function messageSupport(model: ApiModel, wire: WireModel): string[] {
  const typeOf = (ids: string[]) => {
    const types = ids.map((id) => payloadTypeOf(wire.messages.find((m) => m.id === id)!.payload, ''));
    return types.includes('unknown') ? 'any JSON value' : mdCodeSpan([...new Set(types)].join(' | '));
  };
  const verb = (o: WireOperation) => (o.action === 'receive' ? '`stream`' : o.reply ? '`request`' : '`send`');
  return [
    '## What of the client works for this API',
    '',
    `This spec speaks its own messages, not JSON-RPC (${wire.reason}): the client ` +
      `is \`createMessageClient\` of \`@exchange-api/client\`, given this package's ` +
      `wire table and validators. What it sends is the payload as JSON, nothing ` +
      `added; what it receives reaches you exactly as it came.`,
    '',
    "- **URL**: the `url` you give is the server's, pathname included; each channel's " +
      'address is appended as a path (`/raw` + `/` → `/raw/`), its parameters from ' +
      "`params`, the `ws` bindings' query from `query` and headers from `headers` " +
      "(sent with the handshake: Node's `ws`; a browser's WebSocket cannot send " +
      'them, and the browser entry refuses them). One socket per URL and headers, ' +
      'opened on first use.',
    '- **Reconnects**: a socket with streams that drops is reopened with back-off ' +
      '(`reconnect`, the policy of the JSON-RPC client: 250 ms doubling to 10 s, ' +
      '`false` to turn it off), its streams going on; `reconnect` and `reconnected` ' +
      'events say so. Requests open at the drop fail (`ConnectionClosedError`). ' +
      'What you sent before (a subscription) is not sent again: send it on `reconnected`.',
    '- **Replies**: a request resolves with the frame that carries its correlation ' +
      'value (the client fills the field in when you leave it out), or, for an ' +
      'operation without a correlation id, the next frame that fits the reply and ' +
      'is no message of a receive operation there; a reply that does not come within ' +
      '`timeoutMs` rejects with `TimeoutError`.',
    '- **What arrives unasked**: a frame that is no reply to an open request ' +
      'and no message of a receive operation at that URL is an `error` event (`PROTOCOL`, ' +
      "fault `unasked`); one that fails its message's schema is a `validation` " +
      "event, dropped under `validate: 'strict'`. Messages are told apart by their " +
      'constants first (`event`, `type`), then by their schemas.',
    '- **Not yet**: correlation ids in message headers.',
    '',
    '| Operation | Call | Payload | Reply |',
    '|---|---|---|---|',
    ...wire.operations.map(
      (o) =>
        `| ${mdCell(mdCodeSpan(o.id))} | ${verb(o)} | ${mdCell(typeOf(o.messages))}` +
        ` | ${o.reply ? mdCell(typeOf(o.reply.messages)) : '—'} |`,
    ),
    '',
  ];
}
