/**
 * The rules for the root tables (errors, limits, rate-limit classes, login, the action signature,
 * assumptions) and for what only the raw list finds (the version label, anything the model does not hold).
 */
import { v, type Verdict } from './severity';

export const TABLE_RULES = {
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
    'a failed HTTP request answers another status: clients branching on it change ' +
      'paths; an old server answers the old status.',
  ),
  'error.data-changed': v(
    'dangerous',
    'breaking',
    'the data a failure carries (its shape, pattern or text-frame prefix) changed: ' +
      'clients parsing it misread it; an old server answers the old data.',
  ),
  'error.kind-changed': v(
    'dangerous',
    'safe',
    'clients grouping errors by kind (retry on rate-limit, re-login on auth) act differently.',
  ),
  'limit.tightened': v(
    'dangerous',
    'breaking',
    'a client paced for the old limit may now be throttled or refused; an old ' +
      'server allows more than the new spec says.',
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
    'the login headers or the signed message changed: old logins fail against ' +
      'a new server and new logins against an old one.',
  ),
  'login.window-changed': v(
    'dangerous',
    'dangerous',
    'the accepted timestamp window changed: clients with a skewed clock may be refused.',
  ),
  'login.reverify-changed': v(
    'dangerous',
    'dangerous',
    'how often a logged-in connection must sign again changed: a client re-signing ' +
      'on the old schedule may be dropped; an old server asks on the old one.',
  ),
  'action-signature.changed': v(
    'breaking',
    'breaking',
    'the EIP-712 layout of actions changed: signatures made one way do not verify the other.',
  ),
  'action-signature.extended': v(
    'safe',
    'dangerous',
    'new modules, layouts or deployments beside the old ones: every signature ' +
      'made before verifies as before; an old server does not verify the new ones.',
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
