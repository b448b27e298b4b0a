/**
 * The names of the generated TypeScript (issue 23, items 6 and 10): two schemas, channels or
 * operations that one name would stand for are refused, naming both places (unique-names.ts says why
 * not a suffix); names json-schema-to-typescript spells its own way, hyphenated parameters and
 * placeholders without a `parameters` map give an SDK that compiles (tsc) and runs.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateInto } from '../src/index';
import { miniSpec, repoRoot, scratchDir, typecheck, writeSpec } from './helpers';
import { runMain } from '../../../test/support/run-main';
import { SDK_TYPE_NAMES } from '../src/model/unique-names';

/** Two channels, `a` carrying schema `first` and `b` schema `second`. */
const twoSchemas = (first: string, second: string) =>
  miniSpec(`channels:
  a:
    address: a
    messages:
      m: { payload: { $ref: '#/components/schemas/${first}' } }
  b:
    address: b
    messages:
      m: { payload: { $ref: '#/components/schemas/${second}' } }
operations:
  onA: { action: receive, channel: { $ref: '#/channels/a' } }
  onB: { action: receive, channel: { $ref: '#/channels/b' } }
components:
  schemas:
    ${first}: { type: object, required: [a], properties: { a: { type: string } } }
    ${second}: { type: object, required: [b], properties: { b: { type: integer } } }`);

/** `generate` of a spec text: exit status and the lines it printed on stderr. */
async function generate(text: string): Promise<{ status: number; lines: string[]; spec: string }> {
  const spec = writeSpec(text);
  const r = await runMain(['generate', '--spec', spec, '--out', scratchDir('names-')]);
  return { status: r.status, lines: r.stderr.trim().split('\n'), spec };
}

describe('names that would stand for two things', () => {
  it(
    'item 6: schemas foo_bar and FooBar are refused, naming the file, both pointers ' +
      'and the name, with no stack trace',
    async () => {
      const r = await generate(twoSchemas('foo_bar', 'FooBar'));
      expect(r.status).toBe(2);
      expect(r.lines).toContain(
        `error: ${r.spec}:18 #/components/schemas/FooBar: schema "FooBar" and schema ` +
          `"foo_bar" (at "#/components/schemas/foo_bar") both become FooBar in the ` +
          `generated code; rename one of them`,
      );
      expect(r.lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
    },
  );

  it(
    'item 6: a schema named like a type the SDK declares itself (Methods, channel ' + 'a’s AAddress) is refused',
    async () => {
      const r = await generate(twoSchemas('Methods', 'AAddress'));
      expect(r.status).toBe(2);
      expect(r.lines.filter((l) => l.startsWith('error: ')).map((l) => l.replace(/^error: \S+ /, ''))).toEqual([
        '#/components/schemas/Methods: schema "Methods" would declare Methods, a ' +
          'name the generated SDK declares itself; rename the schema',
        '#/components/schemas/AAddress: schema "AAddress" and channel "a" (at "#/channels/a") ' +
          'both become AAddress in the generated code; rename one of them',
      ]);
    },
  );

  it(
    'item 10: channel ids user-events and user_events, and operation ids get-x ' +
      'and get_x, are refused by both places',
    async () => {
      const r = await generate(
        miniSpec(`channels:
  user-events: { address: a, messages: { m: { payload: { type: string } } } }
  user_events: { address: b, messages: { n: { payload: { type: integer } } } }
  calls: { address: c, messages: { q: { payload: { type: string } } } }
operations:
  onA: { action: receive, channel: { $ref: '#/channels/user-events' } }
  onB: { action: receive, channel: { $ref: '#/channels/user_events' } }
  get-x: { action: send, channel: { $ref: '#/channels/calls' }, reply: { channel: { $ref: '#/channels/calls' } } }
  get_x: { action: send, channel: { $ref: '#/channels/calls' }, reply: { channel: { $ref: '#/channels/calls' } } }`),
      );
      expect(r.status).toBe(2);
      expect(r.lines.filter((l) => l.startsWith('error: ')).map((l) => l.replace(/^error: \S+ /, ''))).toEqual([
        '#/channels/user_events: channel "user_events" and channel "user-events" ' +
          '(at "#/channels/user-events") both become UserEventsAddress in the generated ' +
          'code; rename one of them',
        '#/operations/get_x: operation "get_x" and operation "get-x" (at "#/operations/get-x") ' +
          'both become params_get_x in the generated code; rename one of them',
      ]);
    },
  );
});

describe('names the SDK compiles with', () => {
  it(
    'item 6: schemas json-schema-to-typescript names its own way (order_Book, ' +
      'l2book) are declared under the names the channels use',
    async () => {
      const out = scratchDir('names-sdk-');
      await generateInto(writeSpec(twoSchemas('order_Book', 'l2book')), out, { check: false, cwd: repoRoot });
      const types = readFileSync(join(out, 'src', 'types.gen.ts'), 'utf8');
      expect(types).toMatch(/^export interface OrderBook \{$/m);
      expect(types).toMatch(/^export interface L2Book \{$/m);
      const checked = typecheck(join(out, 'src'));
      expect(checked.output).toBe('');
      expect(checked.status).toBe(0);
    },
    120_000,
  );

  it(
    'item 10: a hyphenated address parameter and placeholders with no parameters ' +
      'map compile and fill in; the SDK exports no type beside the schemas’ but ' +
      'SDK_TYPE_NAMES and each channel’s own',
    async () => {
      const out = scratchDir('names-sdk-');
      const spec = miniSpec(`channels:
  userEvents:
    address: 'users.{user-id}.events'
    parameters: { user-id: { description: The user. } }
    messages: { m: { payload: { type: object, properties: { n: { type: integer } } } } }
  seats:
    address: 'rooms.{room}.{seat-no}'
    messages: { m: { payload: { type: string } } }
operations:
  onUsers: { action: receive, channel: { $ref: '#/channels/userEvents' } }
  onSeats: { action: receive, channel: { $ref: '#/channels/seats' } }`);
      await generateInto(writeSpec(spec), out, { check: false, cwd: repoRoot });
      const checked = typecheck(join(out, 'src'));
      expect(checked.output).toBe('');
      // The types the other modules export, which no schema may take: the list unique-names.ts refuses.
      const exported = ['channels', 'methods', 'tables', 'guards', 'client'].flatMap((m) =>
        [...readFileSync(join(out, 'src', `${m}.gen.ts`), 'utf8').matchAll(/^export (?:type|interface) (\w+)/gm)].map(
          (x) => x[1]!,
        ),
      );
      const perChannel = /^(UserEvents|Seats)(Address|ChannelPayload)$/;
      expect(exported.filter((n) => !perChannel.test(n) && !SDK_TYPE_NAMES.includes(n))).toEqual([]);
      const sdk = (await import(pathToFileURL(join(out, 'src', 'index.ts')).href)) as {
        channels: Record<string, (p: Record<string, string | number>) => string>;
      };
      expect(sdk.channels.userEvents!({ 'user-id': 7 })).toBe('users.7.events');
      expect(sdk.channels.seats!({ room: 'r1', 'seat-no': 12 })).toBe('rooms.r1.12');
    },
    120_000,
  );
});
