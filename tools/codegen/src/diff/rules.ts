/**
 * The rules of `exchange-api diff`: each kind of change, classified separately for the two sides.
 * The client side asks "does a program built against the old spec (or an SDK regenerated from the new
 * one) still work against a server of the new spec?"; the server side asks "does a server built for
 * the old spec still conform to the new one?". A schema change depends on which way its data flows:
 * `input` is what clients send (params, channel addresses), `output` what servers send (results,
 * notifications).
 */

/** How bad a change is for one side. */
export type Severity = 'breaking' | 'dangerous' | 'safe';
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/** Which way a schema's data flows. */
export type Flow = 'input' | 'output';

/** A rule's verdict for one side, with the reason. */
export interface Verdict {
  client: Severity;
  server: Severity;
  why: string;
}

const v = (client: Severity, server: Severity, why: string): Verdict => ({ client, server, why });

/** Rules whose verdict does not depend on the direction of data. */
export const FIXED_RULES = {
  'channel.removed': v(
    'breaking',
    'safe',
    'clients that subscribe to it are refused; its address and payload types disappear. An old server may keep serving it.',
  ),
  'channel.added': v('safe', 'breaking', 'old clients never ask for it; an old server does not serve it.'),
  'channel.renamed': v(
    'breaking',
    'safe',
    'the same address under another channel id: the wire is the same, but the generated builder `channels.<id>`, its address and payload types are named by the id, so code using the old names no longer compiles.',
  ),
  'channel.address-changed': v(
    'breaking',
    'breaking',
    'the address on the wire differs: old clients subscribe to addresses new servers do not know, and the other way round.',
  ),
  'channel.made-private': v(
    'breaking',
    'breaking',
    'clients must now log in first; an old server still serves it to anyone.',
  ),
  'channel.made-public': v('safe', 'breaking', 'clients may now subscribe without login; an old server refuses them.'),
  'channel.parameter-added': v(
    'breaking',
    'breaking',
    'the address gains a part: old addresses no longer match, old servers do not know the new ones.',
  ),
  'channel.parameter-removed': v(
    'breaking',
    'breaking',
    'the address loses a part: old addresses no longer match, old servers do not know the new ones.',
  ),
  'channel.parameter-value-added': v('safe', 'breaking', 'clients may send a value an old server refuses.'),
  'channel.parameter-value-removed': v(
    'breaking',
    'safe',
    'clients that use the value are refused (and it leaves the address type); a server may still accept it.',
  ),
  'channel.parameter-restricted': v(
    'breaking',
    'safe',
    'the parameter now has a fixed set of values: clients using others are refused.',
  ),
  'channel.parameter-opened': v(
    'safe',
    'breaking',
    'any value is allowed now: an old server refuses those outside its old set.',
  ),
  'channel.payload-changed': v(
    'breaking',
    'breaking',
    'the channel pushes another record (or an array instead of one): old clients misread it, old servers send the old one.',
  ),
  'method.removed': v(
    'breaking',
    'safe',
    'clients that call it get "method not found"; its entries in the method map and the rpc namespace disappear. An old server may keep serving it.',
  ),
  'method.added': v('safe', 'breaking', 'old clients never call it; an old server answers "method not found".'),
  'method.operation-id-changed': v(
    'breaking',
    'safe',
    'the wire is the same, but the generated rpc function is named by operation id: code calling the old name no longer compiles.',
  ),
  'method.params-changed': v(
    'breaking',
    'breaking',
    'the params are another record: old clients send the old one, old servers expect it.',
  ),
  'method.result-changed': v(
    'breaking',
    'breaking',
    'the result is another record: old clients read the old one, old servers send it.',
  ),
  'method.transport-removed': v(
    'breaking',
    'safe',
    'clients calling it over that transport are refused; an old server may keep serving it there.',
  ),
  'method.transport-added': v(
    'safe',
    'breaking',
    'clients may call it over the new transport; an old server does not serve it there.',
  ),
  'method.http-path-changed': v(
    'breaking',
    'breaking',
    'HTTP calls go to another path: old clients post to the old one, old servers serve only it.',
  ),
  'method.login-required': v(
    'breaking',
    'breaking',
    'clients must log in first; an old server serves it without login, which the new spec forbids.',
  ),
  'method.login-dropped': v('safe', 'breaking', 'clients may call it without login; an old server refuses them.'),
  'method.rate-limit-changed': v(
    'dangerous',
    'dangerous',
    'the same calls count against another budget: a client pacing itself for the old one may be throttled, a server enforces the old one.',
  ),
  'method.order-flow-changed': v(
    'breaking',
    'breaking',
    'whether the call carries an action signature changed: the request shape and its verification differ.',
  ),
  'type.removed': v('breaking', 'safe', 'the generated type disappears: code that names it no longer compiles.'),
  'type.added': v('safe', 'safe', 'a new named type: nothing used it before.'),
  'type.kind-changed': v(
    'breaking',
    'breaking',
    'a record became an enumeration, a scalar or a union (or the other way round): both ends read and write another shape.',
  ),
  'error.removed': v(
    'dangerous',
    'safe',
    'clients handling the code keep dead branches and its ErrorEntry is gone; a server may still answer it.',
  ),
  'error.added': v(
    'dangerous',
    'dangerous',
    'clients meet a failure they do not handle by name; an old server answers the condition otherwise.',
  ),
  'error.message-changed': v(
    'dangerous',
    'breaking',
    'clients matching the message text miss it; an old server answers the old message.',
  ),
  'error.name-changed': v(
    'breaking',
    'safe',
    'programs switch on the stable name: code using the old name no longer matches. The wire code is the same.',
  ),
  'error.status-changed': v(
    'dangerous',
    'breaking',
    'a failed HTTP request answers another status: clients branching on it change paths; an old server answers the old status.',
  ),
  'error.data-changed': v(
    'dangerous',
    'breaking',
    'the data a failure carries (its shape, pattern or text-frame prefix) changed: clients parsing it misread it; an old server answers the old data.',
  ),
  'error.kind-changed': v(
    'dangerous',
    'safe',
    'clients grouping errors by kind (retry on rate-limit, re-login on auth) act differently.',
  ),
  'limit.tightened': v(
    'dangerous',
    'breaking',
    'a client paced for the old limit may now be throttled or refused; an old server allows more than the new spec says.',
  ),
  'limit.loosened': v('safe', 'breaking', 'clients may do more; an old server throttles them earlier.'),
  'limit.added': v(
    'dangerous',
    'breaking',
    'clients meet a limit they did not know; an old server does not enforce it.',
  ),
  'limit.removed': v('safe', 'dangerous', 'clients are no longer held to it; an old server still enforces it.'),
  'limit.changed': v('dangerous', 'dangerous', 'what the limit counts or where it applies changed.'),
  'rate-limit-class.added': v('safe', 'dangerous', 'a new tier-1 class: an old server does not budget it.'),
  'rate-limit-class.removed': v('dangerous', 'dangerous', 'a tier-1 class is gone: its methods count elsewhere.'),
  'rate-limit-class.changed': v(
    'dangerous',
    'dangerous',
    'the budget or scope of a class changed: pacing and enforcement differ.',
  ),
  'login.changed': v(
    'breaking',
    'breaking',
    'the login headers or the signed message changed: old logins fail against a new server and new logins against an old one.',
  ),
  'login.window-changed': v(
    'dangerous',
    'dangerous',
    'the accepted timestamp window changed: clients with a skewed clock may be refused.',
  ),
  'login.reverify-changed': v(
    'dangerous',
    'dangerous',
    'how often a logged-in connection must sign again changed: a client re-signing on the old schedule may be dropped; an old server asks on the old one.',
  ),
  'action-signature.changed': v(
    'breaking',
    'breaking',
    'the EIP-712 layout of actions changed: signatures made one way do not verify the other.',
  ),
  'assumption.added': v(
    'dangerous',
    'dangerous',
    'a new assumption where the document is silent: behaviour both ends relied on may differ.',
  ),
  'assumption.removed': v(
    'dangerous',
    'dangerous',
    'an assumption was dropped: behaviour both ends relied on may differ.',
  ),
  'assumption.changed': v(
    'dangerous',
    'dangerous',
    'an assumption chooses otherwise: behaviour both ends relied on may differ.',
  ),
  'info.version-changed': v(
    'safe',
    'safe',
    'a version number is a label, not a change of the interface (@asyncapi/diff calls it breaking).',
  ),
  'other.changed': v(
    'dangerous',
    'dangerous',
    'a change the model does not classify (found by @asyncapi/diff in the raw document): review it.',
  ),
} satisfies Record<string, Verdict>;

/** Rules whose verdict depends on which way the data of the schema flows. */
export const FLOW_RULES = {
  'field.added-required': {
    input: v('breaking', 'safe', 'clients must send a field old clients do not know; an old server ignores it.'),
    output: v('safe', 'breaking', 'clients get a field more and may ignore it; an old server does not send it.'),
  },
  'field.added-required-closed': {
    input: v(
      'breaking',
      'breaking',
      'clients must send a field old clients do not know; the record was closed, so an old server refuses it.',
    ),
    output: v(
      'dangerous',
      'breaking',
      'the record was closed: old clients validating strictly refuse the field they do not know; an old server does not send it.',
    ),
  },
  'field.added-optional': {
    input: v(
      'safe',
      'dangerous',
      'clients may send it; an old server ignores it (the record is open), so what it asks for does not happen.',
    ),
    output: v('safe', 'safe', 'clients may ignore it; servers need not send it.'),
  },
  'field.added-optional-closed': {
    input: v('safe', 'breaking', 'clients may send it, but the record was closed: an old server refuses it.'),
    output: v(
      'dangerous',
      'safe',
      'the record was closed: old clients validating strictly refuse the field they do not know; servers need not send it.',
    ),
  },
  'field.removed': {
    input: v(
      'breaking',
      'safe',
      'clients that send it are refused by a closed record, and it leaves the type; an old server may still read it.',
    ),
    output: v(
      'breaking',
      'safe',
      'clients that read it get nothing, and it leaves the type; an old server still sends it (extra fields are allowed).',
    ),
  },
  'field.removed-required': {
    input: v(
      'breaking',
      'breaking',
      'the field was required: it leaves the type, and an old server still demands it from clients that no longer send it.',
    ),
    output: v(
      'breaking',
      'safe',
      'clients that read it get nothing, and it leaves the type; an old server still sends it (extra fields are allowed).',
    ),
  },
  'field.made-required': {
    input: v('breaking', 'safe', 'clients that leave it out are refused; an old server accepts it either way.'),
    output: v('safe', 'breaking', 'clients can count on it; an old server may leave it out.'),
  },
  'field.made-optional': {
    input: v('safe', 'breaking', 'clients may leave it out; an old server requires it.'),
    output: v(
      'breaking',
      'safe',
      'clients that count on it may find it missing; the generated property becomes optional, so strict code no longer compiles.',
    ),
  },
  'field.made-nullable': {
    input: v('safe', 'breaking', 'clients may send null; an old server refuses it.'),
    output: v(
      'breaking',
      'safe',
      'clients may get null where they expected a value; the generated type now admits null.',
    ),
  },
  'field.made-non-nullable': {
    input: v('breaking', 'safe', 'clients sending null are refused; the generated type no longer admits null.'),
    output: v('safe', 'breaking', 'clients never get null again; an old server may still send it.'),
  },
  'field.type-changed': {
    input: v(
      'breaking',
      'breaking',
      'the field holds another type: old clients send the old one, old servers expect it.',
    ),
    output: v(
      'breaking',
      'breaking',
      'the field holds another type: old clients read the old one, old servers send it.',
    ),
  },
  'enum.value-added': {
    input: v('safe', 'breaking', 'clients may send a value an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients that switch over the values exhaustively meet one they do not handle (it compiles; the switch falls through).',
    ),
  },
  'enum.value-removed': {
    input: v('breaking', 'safe', 'clients sending the value are refused, and it leaves the generated union.'),
    output: v(
      'breaking',
      'breaking',
      'the value leaves the generated union, so code that names it (a comparison, a case) no longer compiles after regenerating; an old server may still send it.',
    ),
  },
  'constraint.narrowed': {
    input: v(
      'breaking',
      'safe',
      'values clients sent before (a longer string, more decimals, a bigger number) are refused now; an old server still accepts them.',
    ),
    output: v(
      'safe',
      'breaking',
      'clients get a subset of what they accepted; an old server may send values outside the new bounds.',
    ),
  },
  'constraint.widened': {
    input: v('safe', 'breaking', 'clients may send values an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients get values their old validators refuse (strict validation drops them; parsing may lose precision).',
    ),
  },
  'constraint.changed': {
    input: v(
      'dangerous',
      'dangerous',
      'the allowed values moved (neither a subset nor a superset is certain): review both ends.',
    ),
    output: v(
      'dangerous',
      'dangerous',
      'the allowed values moved (neither a subset nor a superset is certain): review both ends.',
    ),
  },
  'union.variant-added': {
    input: v('safe', 'breaking', 'clients may send a shape an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients may get a shape they do not handle (the generated union widens; code that narrows it exhaustively falls through).',
    ),
  },
  'union.variant-removed': {
    input: v('breaking', 'safe', 'clients sending that shape are refused, and it leaves the generated union.'),
    output: v(
      'breaking',
      'breaking',
      'the shape leaves the generated union, so code that builds or names it no longer compiles; an old server may still send it.',
    ),
  },
  'record.closed': {
    input: v('breaking', 'safe', 'fields beyond those listed are refused now: clients sending extras fail.'),
    output: v('safe', 'breaking', 'an old server may send fields the record no longer allows.'),
  },
  'record.opened': {
    input: v('safe', 'breaking', 'clients may send extra fields an old server refuses.'),
    output: v('dangerous', 'safe', 'clients may get fields they do not know (strict validation flags them).'),
  },
} satisfies Record<string, Record<Flow, Verdict>>;

export type FixedRule = keyof typeof FIXED_RULES;
export type FlowRule = keyof typeof FLOW_RULES;
export type RuleId = FixedRule | FlowRule;

const RANK: Record<Severity, number> = { breaking: 2, dangerous: 1, safe: 0 };
const worst = (a: Severity, b: Severity): Severity => (RANK[a] >= RANK[b] ? a : b);
export const atLeast = (s: Severity, bar: Severity): boolean => RANK[s] >= RANK[bar];

/**
 * The verdict of a rule for data flowing the given ways: a schema both sent and received takes the
 * worse of the two verdicts on each side.
 */
export function verdictOf(rule: RuleId, flows: readonly Flow[]): Verdict {
  if (rule in FIXED_RULES) return FIXED_RULES[rule as FixedRule];
  const byFlow = FLOW_RULES[rule as FlowRule];
  const used = flows.length > 0 ? flows : (['input', 'output'] as const);
  const verdicts = used.map((f) => byFlow[f]);
  return {
    client: verdicts.map((x) => x.client).reduce(worst),
    server: verdicts.map((x) => x.server).reduce(worst),
    why: verdicts
      .map((x, i) =>
        used.length > 1 ? `${used[i] === 'input' ? 'sent by clients' : 'sent by servers'}: ${x.why}` : x.why,
      )
      .join(' '),
  };
}
