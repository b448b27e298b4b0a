/**
 * A small API for the diff's rule tests: one parameterised channel, two methods (one over HTTP with
 * login), records whose data flows one way each, enumerations, scalars with constraints, and the root
 * tables. Each test case edits a fresh copy and both versions go through the real loader.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { YamlSource } from '../../src/load/yaml-source';
import { checkConventions } from '../../src/load/conventions';
import { modelOfSpec } from '../../src/model/checked-model';
import type { ApiModel } from '../../src/model/types';

export type Spec = Record<string, any>;

const ref = (to: string) => ({ $ref: to });
const schema = (name: string) => ref(`#/components/schemas/${name}`);

export function baseSpec(): Spec {
  return {
    asyncapi: '3.0.0',
    info: { title: 'Diff Base', version: '1.0.0' },
    channels: {
      ticks: {
        address: 'ticks.{symbol}.{depth}',
        parameters: { symbol: { description: 'the market' }, depth: { enum: ['1', '10'] } },
        messages: { Tick: ref('#/components/messages/Tick') },
        'x-access': 'public',
      },
      rpc: {
        address: null,
        messages: {
          QuoteRequest: ref('#/components/messages/QuoteRequest'),
          QuoteReply: ref('#/components/messages/QuoteReply'),
          FillsRequest: ref('#/components/messages/FillsRequest'),
          FillsReply: ref('#/components/messages/FillsReply'),
        },
      },
    },
    operations: {
      receiveTicks: { action: 'receive', channel: ref('#/channels/ticks') },
      getQuote: {
        action: 'send',
        channel: ref('#/channels/rpc'),
        messages: [ref('#/channels/rpc/messages/QuoteRequest')],
        reply: { channel: ref('#/channels/rpc'), messages: [ref('#/channels/rpc/messages/QuoteReply')] },
        'x-method': 'public/get_quote',
        'x-transports': ['ws'],
        'x-auth': 'none',
        'x-rate-limit-class': 'reads',
      },
      getFills: {
        action: 'send',
        channel: ref('#/channels/rpc'),
        messages: [ref('#/channels/rpc/messages/FillsRequest')],
        reply: { channel: ref('#/channels/rpc'), messages: [ref('#/channels/rpc/messages/FillsReply')] },
        'x-method': 'private/get_fills',
        'x-transports': ['ws', 'http'],
        'x-http-path': '/v1/private/get_fills',
        'x-auth': 'login',
        'x-rate-limit-class': 'reads',
      },
    },
    components: {
      messages: {
        Tick: { payload: schema('Tick') },
        QuoteRequest: { payload: schema('QuoteParams') },
        QuoteReply: { payload: schema('Quote') },
        FillsRequest: { payload: schema('FillsParams') },
        FillsReply: { payload: { type: 'array', items: schema('Fill') } },
      },
      schemas: {
        Tick: {
          type: 'object',
          required: ['symbol', 'price'],
          properties: {
            symbol: { type: 'string' },
            price: schema('Price'),
            side: schema('Side'),
            venue: { type: 'string' },
          },
        },
        Side: { type: 'string', enum: ['buy', 'sell'] },
        Price: { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,8})?$' },
        Size: { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,8})?$' },
        QuoteParams: {
          type: 'object',
          additionalProperties: false,
          required: ['symbol', 'size'],
          properties: {
            symbol: { type: 'string', maxLength: 32 },
            size: schema('Size'),
            tif: { type: 'string', enum: ['gtc', 'ioc'] },
            label: { type: 'string' },
          },
        },
        Quote: {
          type: 'object',
          required: ['price', 'expires'],
          properties: { price: schema('Price'), expires: { type: 'integer', minimum: 0 }, note: { type: 'string' } },
        },
        FillsParams: {
          type: 'object',
          properties: { symbol: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
        },
        Fill: {
          type: 'object',
          required: ['id', 'side'],
          properties: { id: { type: 'string' }, side: schema('Side'), fee: { type: 'string' } },
        },
      },
    },
    'x-rate-limit-classes': [{ name: 'reads', default: true, appliesTo: 'every method', budget: 'reads' }],
    'x-limits': [
      { id: 'reads', title: 'Read budget', kind: 'window', scope: 'wallet', tps: 5, windowMs: 5000, points: 25 },
      { id: 'connections', title: 'Connections', kind: 'connections', scope: 'ip', max: 10 },
    ],
    'x-errors': {
      reserved: [],
      codes: [
        {
          code: -32000,
          name: 'RATE_LIMITED',
          kind: 'rate-limit',
          httpStatus: 429,
          message: 'Rate limit exceeded',
          condition: 'Over budget.',
        },
        {
          code: 14000,
          name: 'AUTH_REQUIRED',
          kind: 'auth',
          httpStatus: 401,
          message: 'Authentication required',
          condition: 'No login.',
        },
      ],
    },
    'x-assumptions': [{ id: 'ticks-ms', title: 'Tick times', choice: 'milliseconds', reason: 'not shown' }],
  };
}

let dir: string | null = null;
let n = 0;

/**
 * Write a spec to a temporary file for the loader (`edit` may rewrite its YAML text, e.g. to put in a 64-bit
 * integer as written).
 */
export function writeSpec(spec: Spec, edit: (yamlText: string) => string = (t) => t): string {
  return writeText(edit(stringify(spec)));
}

function writeText(text: string): string {
  dir ??= mkdtempSync(join(tmpdir(), 'exchange-api-diff-rules-'));
  const file = join(dir, `spec-${n++}.yaml`);
  writeFileSync(file, text);
  return file;
}

/**
 * The model of a spec as `generate` builds it (conventions checked, examples checked), without the
 * AsyncAPI parser's worker: two seconds a spec would make a hundred cases slow. The CLI test and the
 * own-spec mutations go through the whole loader.
 */
export function modelOf(spec: Spec, edit: (yamlText: string) => string = (t) => t): ApiModel {
  return modelOfFile(writeSpec(spec, edit));
}

/**
 * As modelOf, the spec written as JSON (JSON is YAML): our own spec writes and reads back in about
 * half the time of its YAML text.
 */
export function modelOfJson(spec: Spec): ApiModel {
  return modelOfFile(writeText(JSON.stringify(spec, null, 1)));
}

function modelOfFile(file: string): ApiModel {
  const source = YamlSource.read(file, file);
  const problems: string[] = [];
  const data = checkConventions(source.data, (path, message, severity = 'error') => {
    if (severity === 'error') problems.push(`${path.join('/')}: ${message}`);
  });
  if (!data) throw new Error(`the test spec breaks the conventions: ${problems.join('; ')}`);
  return modelOfSpec({ file, data, source, notes: [] });
}
