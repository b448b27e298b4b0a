/**
 * Every rule the generated checks judge by, under a stable id, with its words. The id is what makes two
 * failures the same failure: shrinking keeps a smaller input only when it fails by the same id, a target
 * shrinks the first failure of each id, and a replay file records it. The words may be reworded (and some
 * name a value) without changing which failure is which.
 */
import type { Judgement, JudgementStatus } from '../model';

export const RULES = {
  // One call of a method.
  envelope: 'responses stay inside the JSON-RPC envelope',
  'error-code-documented': 'error codes come from the error table',
  'valid-not-refused-as-invalid': 'a valid input is accepted, or refused for another documented reason',
  'unlisted-name-refused': 'a value the server does not list is refused as invalid params',
  'result-conforms': 'the result conforms to the result schema',
  'invalid-refused': 'an invalid input is refused, never served',
  'connection-kept': 'a request never closes the connection',
  'answer-within-bound': 'an answer within the bound',
  'rate-limit-waited': 'rate limits',
  'http-answered': 'an HTTP request gets an HTTP response',
  'http-body-envelope': 'HTTP answers carry a JSON-RPC response (the http-responses assumption)',
  'unnamed-member-refused-by-name':
    'a member an open object allows but does not name may be refused with a documented code',
  // Channel address templates.
  'channel-invalid-refused-alone': 'an invalid address is refused for that address alone',
  'channel-valid-subscribed': 'a valid address is subscribed',
  'channel-push-conforms': 'pushes conform to the payload schema',
  'channel-long-address-answered': 'a subscribe with a long address is answered on an open connection',
  // Invariants of what is pushed (invariants.ts names them; the id is `invariant-` and that name).
  'invariant-order-book': 'order-book',
  'invariant-publish-id-increasing': 'publish-id-increasing',
  'invariant-trade-price-in-book-range': 'trade-price-in-book-range',
  // Sequences.
  'private-refused-before-login': 'a private method is refused before login',
  'private-served-after-login': 'after login the same private call is served',
  'subscriptions-follow-requests': 'current_subscriptions follows the requests',
  'only-subscribed-pushed': 'only subscribed channels are pushed',
  'order-action-refused': 'an order action the document forbids is refused',
  'order-accepted': 'a valid signed resting order is accepted',
  'order-open': 'a placed resting order is among the open orders',
  'order-replaced': 'replace cancels the order and places another',
  'order-cancelled': 'cancel of an open order is served',
  'orders-gone': 'cancelled and replaced orders are gone from the open orders',
} as const;

/** The id of a rule of the generated checks. */
export type RuleId = keyof typeof RULES;

/** A rule: its id, and its words (the catalogue's, or words that name this case's values). */
export interface Rule {
  id: RuleId;
  text: string;
}

/** The rule of an id, in the catalogue's words or in `text`. */
export function rule(id: RuleId, text: string = RULES[id]): Rule {
  return { id, text };
}

/** A judgement by a rule. */
export function judged(status: JudgementStatus, r: Rule | RuleId, expected: string, got: string): Judgement {
  const { id, text } = typeof r === 'string' ? rule(r) : r;
  return { status, ruleId: id, rule: text, expected, got };
}

/**
 * The id of a rule from its words, for replay files written before ids were recorded (format version 1
 * files from 0.3.0): the catalogue's words, else the words of the rule the verdict's text starts like.
 */
export function ruleIdOf(text: string): string {
  const exact = (Object.keys(RULES) as RuleId[]).find((id) => RULES[id] === text);
  if (exact) return exact;
  return EARLIER_WORDS.find(([words]) => text.startsWith(words))?.[1] ?? 'unrecorded';
}

/** Words a pass or a note used for a rule, before ids were recorded. */
const EARLIER_WORDS: [string, RuleId][] = [
  ['a valid input refused with a documented code', 'valid-not-refused-as-invalid'],
  ['a valid input accepted with a conforming result', 'result-conforms'],
  ['an invalid input refused with a documented code', 'invalid-refused'],
  ['a value of /', 'unlisted-name-refused'],
];
