/**
 * The JSON Schema of a replay file (format version 1), and reading a parsed file through it: a file a
 * person edited, or another version wrote, is refused with the file and the JSON pointer of what is
 * wrong, before any part of it is sent. Members the reader does not use are allowed (a later writer may
 * add some); `ruleId` is optional because files written before rule ids were recorded lack it.
 */
import Ajv, { type ErrorObject } from 'ajv';

const text = { type: 'string' } as const;
const texts = { type: 'array', items: text } as const;

const verdict = {
  type: 'object',
  required: ['status', 'rule', 'expected', 'got'],
  properties: {
    status: { enum: ['pass', 'fail', 'inconclusive', 'note'] },
    ruleId: text,
    rule: text,
    expected: text,
    got: text,
  },
} as const;

const call = {
  type: 'object',
  required: ['params', 'sent', 'received', 'verdict'],
  properties: { params: text, sent: text, received: texts, verdict },
} as const;

const frame = {
  type: 'object',
  required: ['sent', 'received'],
  properties: {
    sent: text,
    received: texts,
    login: { const: true },
    signed: {
      type: 'object',
      required: ['action', 'fields'],
      properties: {
        action: text,
        fields: { type: 'object' },
        instrument: { type: 'object', additionalProperties: text },
      },
    },
  },
} as const;

const judge = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['refused', 'served', 'subscriptions', 'pushes'] }, expected: texts, subscribed: texts },
  allOf: [
    { if: { properties: { kind: { const: 'subscriptions' } } }, then: { required: ['expected'] } },
    { if: { properties: { kind: { const: 'pushes' } } }, then: { required: ['subscribed'] } },
  ],
} as const;

const sequence = {
  type: 'object',
  required: ['conn', 'frames', 'judge', 'wallet', 'subaccounts'],
  properties: {
    conn: { enum: ['fresh', 'login'] },
    frames: { type: 'array', items: frame, minItems: 1 },
    judge,
    wallet: { type: ['string', 'null'] },
    subaccounts: { type: 'array', items: { type: 'integer' } },
  },
} as const;

/** The schema of a replay file, format version 1. */
export const replayFileSchema = {
  $id: 'urn:exchange-api:conformance-replay:1',
  type: 'object',
  required: [
    'format',
    'formatVersion',
    'seed',
    'spec',
    'target',
    'kind',
    'method',
    'transport',
    'auth',
    'expect',
    'why',
    'call',
    'shrinkSteps',
  ],
  properties: {
    format: { const: 'exchange-api-conformance-replay' },
    formatVersion: { const: 1 },
    seed: { type: 'integer' },
    spec: { type: 'object', required: ['file'], properties: { file: text, title: text, version: text } },
    target: { type: 'object', required: ['ws'], properties: { ws: text, http: { type: ['string', 'null'] } } },
    kind: { enum: ['method', 'channel', 'sequence', 'message'] },
    method: text,
    transport: { enum: ['ws', 'http'] },
    auth: { enum: ['none', 'login'] },
    expect: { enum: ['valid', 'invalid'] },
    why: text,
    channel: {
      type: 'object',
      required: ['address'],
      properties: { address: text, valid: text, subscribed: texts },
    },
    sequence,
    offHint: text,
    call,
    original: call,
    shrinkSteps: { type: 'integer', minimum: 0 },
    recordedAt: text,
  },
  allOf: [
    { if: { properties: { kind: { const: 'channel' } } }, then: { required: ['channel'] } },
    { if: { properties: { kind: { const: 'sequence' } } }, then: { required: ['sequence'] } },
  ],
} as const;

// strictRequired off: an if/then names a member its parent's properties define.
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: false });
const validate = ajv.compile(replayFileSchema);

/** Where an ajv error is (a JSON pointer; a missing member's own pointer) and what is wrong there. */
function said(e: ErrorObject): { pointer: string; what: string } {
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return { pointer: `${e.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`, what: 'is missing' };
  }
  const allowed = (e.params as { allowedValues?: unknown[]; allowedValue?: unknown }).allowedValues;
  const one = (e.params as { allowedValue?: unknown }).allowedValue;
  const why = allowed
    ? `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`
    : one !== undefined
      ? `must be ${JSON.stringify(one)}`
      : (e.message ?? e.keyword);
  return { pointer: e.instancePath || '/', what: why };
}

/**
 * Whether a parsed value is a replay file; throws an Error naming the file, the JSON pointer of the
 * first thing wrong and what is wrong there.
 */
export function assertReplayFile(path: string, value: unknown): void {
  if (validate(value)) return;
  // Ajv reports a failed `if/then` twice (the `then` and the `if`): the first error is the one to say.
  const { pointer, what } = said(validate.errors![0]!);
  throw new Error(`the replay file ${path} is not a replay file of format version 1: at ${pointer}: ${what}`);
}
