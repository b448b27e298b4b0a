/**
 * The derive-ts parity table (docs/derive-ts-parity.md), from the evidence and the spec's model: each
 * public method of derive-ts 3.0.13's SDK, grouped as its api files group them, the wire methods it sends,
 * our client's call for each, and what our call adds. A pure function of its inputs; `parity-cli.ts`
 * writes or checks the page.
 */
import type { ApiModel, MethodModel } from '@exchange-api/codegen';
import type { DeriveTsEvidence, SdkMethod } from './shape';

/** derive-ts's api files in the order its client exposes them; any other group follows, by name. */
export const GROUP_ORDER = [
  'marketData',
  'orders',
  'rfq',
  'sessionKeys',
  'spotTransfers',
  'subaccounts',
  'vaults',
  'withdrawals',
  'deposits',
  'positionTransfers',
];

const code = (s: string) => `\`${s}\``;

/** Our client's call for a method: order flow through its signing member, the rest through `rpc`. */
function ourCall(m: MethodModel): string {
  return m.orderFlow ? code(`client.${m.id}(…)`) : code(`client.rpc.${m.id}(…)`);
}

/** What our call adds to sending the request: validation both ways, its limiter class, transports, signing. */
function adds(m: MethodModel): string {
  const parts = ['params and result validated'];
  parts.push(`limiter: ${m.rateLimitClass ?? 'none'}`);
  parts.push(
    m.transports.includes('ws') ? `WebSocket (reconnects)${m.transports.includes('http') ? ' or HTTP' : ''}` : 'HTTP',
  );
  if (m.actionModule) {
    const what = [m.actionModule, ...m.actionData].join(' ');
    parts.push(
      m.orderFlow ? `signed for you (${what}; nonce and expiry filled)` : `signs with \`signAction\` (${what})`,
    );
  }
  return parts.join('; ');
}

function row(sdk: SdkMethod, byName: Map<string, MethodModel>): string {
  const name = code(`${sdk.group}.${sdk.method}`);
  if (sdk.calls.length === 0) return `| ${name} | (no JSON-RPC call: on chain or local) | | |`;
  const methods = sdk.calls.map((c) => byName.get(c));
  const wire = sdk.calls.map(code).join(', ');
  // A method the SDK sends that its EndpointMap does not type is not in the spec either (the scope).
  const calls = methods.map((m) => (m ? ourCall(m) : 'none: untyped in derive-ts (not in its EndpointMap)')).join(', ');
  const added = methods.flatMap((m) => (m ? [adds(m)] : [])).filter((a, i, all) => all.indexOf(a) === i);
  return `| ${name} | ${wire} | ${calls} | ${added.join(' / ')} |`;
}

/** The page. */
export function parityPage(derive: DeriveTsEvidence, model: ApiModel): string {
  const sdk = derive.sdk ?? [];
  const byName = new Map(model.methods.map((m) => [m.name, m]));
  const groups = [...new Set(sdk.map((s) => s.group))].sort((a, b) => {
    const [i, j] = [GROUP_ORDER.indexOf(a), GROUP_ORDER.indexOf(b)];
    return (i < 0 ? 99 : i) - (j < 0 ? 99 : j) || (a < b ? -1 : 1);
  });
  const called = new Set(sdk.flatMap((s) => s.calls));
  const rawOnly = Object.keys(derive.methods)
    .filter((n) => !called.has(n))
    .sort();
  const out = [
    '# derive-ts parity',
    '',
    `Each public method of derive-ts ${derive.client.version}'s SDK (the venue's official TypeScript client,`,
    "`src/api/*.ts`, grouped as its api files are), the JSON-RPC methods it sends, our client's call for",
    "each and what our call adds. Generated from the evidence (`spec/evidence/`) and the spec's model by",
    '`npm run parity -w @exchange-api/evidence`; `tools/evidence/test/parity.test.ts` fails when it drifts.',
    '',
    'Every call of ours validates its params before sending and its result on arrival (the generated',
    'validators), waits for its rate-limit class in the limiter before sending, and goes over the WebSocket,',
    'which reconnects and resubscribes, or over HTTP. Order flow (`client.order`, `client.replace`, …) fills',
    "the nonce and expiry and signs; the other signed methods take params signed with `@exchange-api/auth`'s",
    '`signAction` (or `signTransferPositions`).',
    '',
    `${sdk.filter((s) => s.calls.some((c) => !byName.has(c))).length} SDK methods send a method that derive-ts's`,
    '`EndpointMap` does not type; the spec describes what the public clients type or call, so ours has no call',
    'for those yet (marked "none" below).',
    '',
  ];
  for (const g of groups) {
    out.push(`## ${g}`, '', '| derive-ts | sends | ours | what ours adds |', '|---|---|---|---|');
    for (const s of sdk.filter((x) => x.group === g)) out.push(row(s, byName));
    out.push('');
  }
  out.push(
    "## Reached only through derive-ts's raw `send`",
    '',
    'Methods of its `EndpointMap` that no SDK method sends; ours has a typed call for each.',
    '',
    '| method | ours | what ours adds |',
    '|---|---|---|',
  );
  for (const n of rawOnly) {
    const m = byName.get(n);
    out.push(m ? `| ${code(n)} | ${ourCall(m)} | ${adds(m)} |` : `| ${code(n)} | not in the spec | |`);
  }
  out.push('');
  return out.join('\n');
}
