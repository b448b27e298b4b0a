/** Shared by the docs emitter's tests: the repository's model, loaded once per test process. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headerFor, type ApiModel, type EmittedFile } from '../src/index';
import { ourModel, ourSpec, repoRoot } from './helpers';

export const root = repoRoot;
export const specFile = ourSpec;

/** The repository's model, shared with the other test files (helpers.ts, ourModel). */
export function repoModel(): Promise<ApiModel> {
  return ourModel();
}

/** A deep copy, so a test can break a model without touching the shared one. */
export const clone = <T>(v: T): T => structuredClone(v);

/** Every id attribute of an HTML or Markdown file. */
export function idsOf(content: string): Set<string> {
  return new Set(
    [...content.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')),
  );
}

/**
 * Each HTML page's weight as a reader loads it: its bytes as written (with the header line naming the
 * command) plus those of the stylesheet and scripts it loads, as `[page, bytes, assets loaded]`.
 */
export function pageWeights(files: EmittedFile[]): Array<[string, number, string[]]> {
  const bytes = (f: EmittedFile) => Buffer.byteLength(`${headerFor(f.path, 'spec/asyncapi.yaml')}\n${f.content}`);
  const byPath = new Map(files.map((f) => [f.path, f]));
  return files
    .filter((f) => f.path.endsWith('.html'))
    .map((f) => {
      const head = f.content.slice(0, f.content.indexOf('</head>'));
      const assets = [...head.matchAll(/<(?:link rel="stylesheet" href|script src)="([^"]+)"/g)].map((m) =>
        new URL(m[1]!, `file:///site/${f.path}`).pathname.replace(/^\/site\//, ''),
      );
      const loaded = assets.map((a) => {
        const asset = byPath.get(a);
        if (!asset) throw new Error(`${f.path} loads ${a}, which the site does not have`);
        return bytes(asset);
      });
      return [f.path, loaded.reduce((n, b) => n + b, bytes(f)), assets];
    });
}

/** Internal links of emitted pages that point at a missing file or anchor, as `from → href`. */
export function brokenLinks(files: EmittedFile[], ext: '.html' | '.md'): string[] {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const broken: string[] = [];
  for (const f of files.filter((x) => x.path.endsWith(ext))) {
    const pattern = ext === '.html' ? /href="([^"]+)"/g : /\]\(([^)\s]+)\)/g;
    for (const [, raw] of f.content.matchAll(pattern)) {
      const href = raw!.replace(/&amp;/g, '&');
      if (/^[a-z]+:/i.test(href)) continue;
      const [file, anchor] = href.split('#');
      const target = file ? new URL(file, `file:///site/${f.path}`).pathname.replace(/^\/site\//, '') : f.path;
      const content = byPath.get(target);
      if (content === undefined) broken.push(`${f.path} → ${href} (no file)`);
      else if (anchor && !idsOf(content).has(decodeURIComponent(anchor)))
        broken.push(`${f.path} → ${href} (no anchor)`);
    }
  }
  return broken;
}

/** The ledger fixture, the second API of the docs' tests. */
export const ledgerFile = new URL('./fixtures/ledger.asyncapi.yaml', import.meta.url).pathname;

/**
 * A variant of the ledger fixture (written to a temporary file) with what the fixture lacks: a method
 * whose request and reply messages have titles, summaries and named examples; a request record built
 * with `allOf` whose `nonce` has a pattern; an int64 enumeration, an int64 default and example payloads
 * at the 64-bit limits (beyond 2^53, where parsed numbers lose digits).
 */
export function ledgerVariant(): string {
  let text = readFileSync(ledgerFile, 'utf8');
  const insert = (after: string, block: string) => {
    if (!text.includes(after)) throw new Error(`ledger fixture: no ${JSON.stringify(after)}`);
    text = text.replace(after, () => after + block);
  };
  insert(
    'channels:\n',
    `  calls:
    address: null
    messages:
      BalanceRequest: { $ref: '#/components/messages/BalanceRequest' }
      BalanceReply: { $ref: '#/components/messages/BalanceReply' }
`,
  );
  insert(
    'operations:\n',
    `  getBalance:
    action: send
    channel: { $ref: '#/channels/calls' }
    messages: [{ $ref: '#/channels/calls/messages/BalanceRequest' }]
    reply:
      channel: { $ref: '#/channels/calls' }
      messages: [{ $ref: '#/channels/calls/messages/BalanceReply' }]
    x-method: balance/get
    x-transports: [ws]
    x-auth: none
`,
  );
  insert(
    "          payload: { seq: 2, offset: -5, amount: '-12.5' }\n",
    `        - name: at the limits
          summary: Sequence and offset at their 64-bit maximum
          payload: { seq: 18446744073709551615, offset: 9223372036854775807, amount: '1' }
    BalanceRequest:
      name: BalanceRequest
      title: balance request
      summary: Asks for an account's balance.
      payload: { $ref: '#/components/schemas/BalanceParams' }
      examples:
        - name: first account
          summary: The balance of account 1.
          payload: { account: '1', nonce: '1', limit: 9223372036854775807 }
        - name: last account
          summary: The balance of the account with the largest id
          payload: { account: '18446744073709551615', nonce: '2', limit: -9223372036854775808 }
    BalanceReply:
      name: BalanceReply
      title: balance reply
      summary: The balance, with the last sequence posted.
      payload: { $ref: '#/components/schemas/Balance' }
      examples:
        - name: first balance
          payload: { amount: '12.5', last_seq: 18446744073709551615, tier: 9223372036854775807 }
        - name: second balance
          summary: A balance at the smallest tier.
          payload: { amount: '0', last_seq: 0, tier: -9223372036854775808 }
`,
  );
  insert(
    '  schemas:\n',
    `    Signed:
      type: object
      required: [nonce]
      properties:
        nonce: { type: string, pattern: '^[0-9]{1,32}$' }
    BalanceParams:
      allOf:
        - $ref: '#/components/schemas/Signed'
        - type: object
          required: [account]
          properties:
            account: { type: string }
            limit: { type: integer, default: 9223372036854775807 }
    Tier:
      type: integer
      enum: [9223372036854775807, -9223372036854775808, 0]
    Balance:
      type: object
      required: [amount, last_seq]
      properties:
        amount: { $ref: '#/components/schemas/Amount' }
        last_seq: { $ref: '#/components/schemas/Sequence' }
        tier: { $ref: '#/components/schemas/Tier' }
`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'ledger-variant-'));
  const file = join(dir, 'ledger-variant.asyncapi.yaml');
  writeFileSync(file, text);
  return file;
}

/**
 * Our model with its channels and methods tagged by topic, as a spec that tags its operations reads
 * (`tags: [{ name: Orders }]` → `group`): the site split by group, before our spec has tags of its own.
 * Subscribing, login and the rate limits stay untagged: the default group.
 */
export function taggedModel(model: ApiModel): ApiModel {
  const topics: Array<[string, RegExp]> = [
    ['RFQ and quotes', /rfq|quote/],
    ['Vaults', /vault|mint|burn/],
    ['Orders', /order|cancel|replace|mmp|trigger|algo|liquidate/],
    ['Transfers', /transfer|withdraw|deposit|erc20/],
    ['Account', /subaccount|account|portfolio|collateral|position|session|wallet|referral|balance|margin/],
    ['History', /history|trade|settlement|funding|interest|transaction|onchain/],
    ['Market data', /instrument|currenc|ticker|asset|chart|feed|orderbook|time|risk|auction/],
  ];
  const topic = (name: string) => topics.find(([, re]) => re.test(name.toLowerCase()))?.[0];
  const tagged = clone(model);
  for (const m of tagged.methods) {
    const group = /^(subscribe|unsubscribe|public\/login|public\/getRateLimits)$/.test(m.name)
      ? undefined
      : topic(m.name);
    if (group) m.group = group;
  }
  for (const c of tagged.channels) {
    const group = topic(c.id);
    if (group) c.group = group;
  }
  return tagged;
}
