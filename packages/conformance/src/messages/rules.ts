/**
 * The rules a message run judges by, under stable ids (as generate/rules.ts for our API): shrinking keeps a
 * smaller input only when it fails by the same id, and a replay file records it.
 */
import type { Judgement, JudgementStatus } from '../model';

export const MSG_RULES = {
  'reply-within-bound': 'a request gets its reply within the bound',
  'reply-correlated': "the reply carries the request's correlation value",
  'reply-conforms': 'the reply is a valid message of the reply the operation declares',
  'connection-kept': 'a valid message never closes the connection',
  'push-conforms': 'each message of a receive operation validates against its schema',
  'no-unasked-message':
    'every message at an address is a message of a receive operation there, or the reply to an open request',
  'invalid-sent': 'an invalid message: the spec says nothing of the answer; what comes is judged as every message',
} as const;

export type MsgRuleId = keyof typeof MSG_RULES;

/** A judgement by one of the rules. */
export function judged(id: MsgRuleId, status: JudgementStatus, expected: string, got: string): Judgement {
  return { ruleId: `messages.${id}`, rule: MSG_RULES[id], status, expected, got };
}
