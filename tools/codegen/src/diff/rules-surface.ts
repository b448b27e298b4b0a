/** The rules for the API's surface: channels, methods and named types, whichever way data flows. */
import { v, type Verdict } from './severity';

export const SURFACE_RULES = {
  'channel.removed': v(
    'breaking',
    'safe',
    'clients that subscribe to it are refused; its address and payload types ' +
      'disappear. An old server may keep serving it.',
  ),
  'channel.added': v('safe', 'breaking', 'old clients never ask for it; an old server does not serve it.'),
  'channel.renamed': v(
    'breaking',
    'safe',
    'the same address under another channel id: the wire is the same, but the ' +
      'generated builder `channels.<id>`, its address and payload types are named ' +
      'by the id, so code using the old names no longer compiles.',
  ),
  'channel.address-changed': v(
    'breaking',
    'breaking',
    'the address on the wire differs: old clients subscribe to addresses new ' +
      'servers do not know, and the other way round.',
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
    'the channel pushes another record (or an array instead of one): old clients ' +
      'misread it, old servers send the old one.',
  ),
  'method.removed': v(
    'breaking',
    'safe',
    'clients that call it get "method not found"; its entries in the method map ' +
      'and the rpc namespace disappear. An old server may keep serving it.',
  ),
  'method.added': v('safe', 'breaking', 'old clients never call it; an old server answers "method not found".'),
  'method.operation-id-changed': v(
    'breaking',
    'safe',
    'the wire is the same, but the generated rpc function is named by operation ' +
      'id: code calling the old name no longer compiles.',
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
    'the same calls count against another budget: a client pacing itself for ' +
      'the old one may be throttled, a server enforces the old one.',
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
    'a record became an enumeration, a scalar or a union (or the other way round): ' +
      'both ends read and write another shape.',
  ),
} satisfies Record<string, Verdict>;
