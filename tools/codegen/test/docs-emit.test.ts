/**
 * The emitter on our spec's model (and on a small model of another API): every channel, method, field,
 * value, not-shown place and assumption has its section and anchor; links resolve; examples validate
 * and an invalid one stops generation naming its place; the repository's copy is current.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MANIFEST_NAME, writeFiles, type ApiModel, type EmittedFile } from '../src/index';
import { SiteMap, diffModels, emitDocs, exampleAddress, searchEntries } from '../src/index';
import { notificationMethod } from '../src/emit/docs/examples';
import type { Ref } from '../src/emit/docs/ir';
import { brokenLinks, clone, idsOf, pageWeights, repoModel, root, taggedModel } from './docs-helpers';
import { miniSpec, writeSpec } from './helpers';
import { modelFromSpec } from '../src/index';

let model: ApiModel;
let files: EmittedFile[];
let site: SiteMap;
/** The HTML of one `<h2>` section, `<wbr>` hints removed. */
const section = (html: string, id: string) => {
  const start = html.indexOf(`<h2 id="${id}">`);
  expect(start, `section #${id}`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf('<h2', start + 1);
  return html.slice(start, end < 0 ? undefined : end).replace(/<wbr>/g, '');
};
const file = (path: string, out: EmittedFile[] = files) => {
  const f = out.find((x) => x.path === path);
  if (!f) throw new Error(`no ${path} among ${out.map((x) => x.path).join(', ')}`);
  return f.content;
};
/** The HTML page a place is on (`channels.html`, or its group's page where the spec tags its operations). */
const pageOf = (ref: Ref, out: EmittedFile[] = files) => file(`${ref.page}.html`, out);
/** The page of a channel of `m` (by id) in `out`, the site of `m`. */
const channelPage = (m: ApiModel, id: string, out: EmittedFile[]) =>
  pageOf(new SiteMap(m).channel(m.channels.find((c) => c.id === id)!), out);

/**
 * Our model split by group: by the tags of our spec's operations where it has them, else by the tags
 * taggedModel gives a copy of it (the measure of a site our spec's tags will split likewise).
 */
let grouped: ApiModel;

beforeAll(async () => {
  model = await repoModel();
  files = emitDocs(model);
  site = new SiteMap(model);
  grouped = site.layout.methods.length > 0 ? model : taggedModel(model);
});

describe('emitDocs on our spec', () => {
  it('writes the HTML site, its assets and the same pages as Markdown, all in the docs slot', () => {
    const paths = files.map((f) => f.path);
    for (const p of ['index', 'channels', 'methods', 'records', 'enums', 'errors', 'limits', 'login', 'open']) {
      expect(paths).toContain(`${p}.html`);
      expect(paths).toContain(`md/${p}.md`);
    }
    expect(paths).toEqual(expect.arrayContaining(['assets/site.css', 'assets/search.js', 'assets/search-index.js']));
    expect(files.every((f) => f.slot === 'docs')).toBe(true);
    expect(
      files
        .filter((f) => f.path.endsWith('.html'))
        .every((f) => !/https?:\/\//.test(f.content.replace(/https:\/\/\{[a-z_]+\}/g, ''))),
    ).toBe(true);
  });

  it('gives every channel a section with its address, access, parameters and an anchor, in HTML and Markdown', () => {
    for (const c of model.channels) {
      const id = site.channel(c).anchor!;
      const html = pageOf(site.channel(c));
      const md = file(`md/${site.channel(c).page}.md`);
      const part = section(html, id);
      expect(part).toContain(`<code>${c.address}</code>`);
      expect(part).toContain(`class="t ${c.access}"`);
      expect(md).toContain(`<a id="${id}"></a>`);
      for (const p of c.parameters) expect(part).toContain(`<code>{${p.name}}</code>`);
    }
    const ids = new Set(model.channels.flatMap((c) => [...idsOf(pageOf(site.channel(c)))]));
    expect(ids.size).toBeGreaterThan(model.channels.length * 4);
  });

  it('gives every method a section with transports, rate-limit class, auth and an anchor', () => {
    for (const m of model.methods) {
      const part = section(pageOf(site.method(m)), site.method(m).anchor!);
      expect(part).toContain(`<code>${m.name}</code>`);
      expect(part).toContain(`>${m.rateLimitClass}<`);
      expect(part).toContain(m.auth === 'login' ? '>login</a> required' : '<dd>none</dd>');
      for (const t of m.transports) expect(part).toContain(t === 'ws' ? 'WebSocket' : 'HTTP');
    }
  });

  it('lists every field of every record and every enumeration value, each with its anchor', () => {
    const enums = idsOf(file('enums.html'));
    let fields = 0;
    for (const t of model.types) {
      expect(idsOf(pageOf(site.typeRef(t.name)!))).toContain(site.typeRef(t.name)!.anchor);
      for (const f of t.fields ?? []) {
        expect(idsOf(pageOf(site.fieldRef(t.name, f.name)))).toContain(site.fieldRef(t.name, f.name).anchor);
        fields++;
      }
      for (const v of t.values ?? []) expect(enums).toContain(site.valueRef(t.name, v).anchor);
    }
    expect(fields).toBeGreaterThan(200);
    expect(idsOf(pageOf(site.typeRef('OrderbookPayload')!))).toContain('OrderbookPayload.publish_id');
    expect(enums).toContain('CancelReason.insufficient_margin');
  });

  it('puts every not-shown place and every assumption on one page, and links each marked section to it', () => {
    const open = file('open.html');
    const ids = idsOf(open);
    for (const n of model.notShown) expect(ids).toContain(site.notShownRef(n).anchor);
    for (const a of model.assumptions) expect(ids).toContain(site.assumptionRef(a.id).anchor);
    const orderbook = model.channels.find((c) => c.id === 'orderbook')!;
    expect(pageOf(site.channel(orderbook))).toContain(
      `href="open.html#${site.notShownRef(site.notShownUnder('#/channels/orderbook')[0]!).anchor}"`,
    );
    expect(orderbook.notShown).toBeTruthy();
    const marked = model.methods.filter((m) => m.assumption);
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) expect(pageOf(site.method(m))).toContain(`href="open.html#assumption-${m.assumption}"`);
  });

  it("every page's sidebar reaches every page (readable without JavaScript)", () => {
    const pages = files.filter((f) => f.path.endsWith('.html')).map((f) => f.path);
    expect(pages.length).toBeGreaterThanOrEqual(9);
    for (const page of pages) {
      const html = file(page);
      const sidebar = html.slice(0, html.indexOf('<main'));
      const targets = new Set([...sidebar.matchAll(/href="([^"#]*)(?:#[^"]*)?"/g)].map((m) => m[1] || page));
      for (const other of pages) expect(targets.has(other) || other === page, `${page} → ${other}`).toBe(true);
    }
  });

  it('resolves every internal link of the HTML and of the Markdown pages', () => {
    expect(brokenLinks(files, '.html')).toEqual([]);
    expect(
      brokenLinks(
        files.filter((f) => f.path.startsWith('md/')).map((f) => ({ ...f, path: f.path.slice(3) })),
        '.md',
      ),
    ).toEqual([]);
  });

  it(
    "shows real example frames: the spec's own, one borrowed for a channel with " + 'the same payload, none invented',
    () => {
      expect(section(channelPage(model, 'orderbook', files), 'orderbook')).toContain(
        '"channel": "orderbook.ETH-PERP.10.10"',
      );
      // Our spec has an example for nearly every channel; take some away to see the borrowing and the honest gap.
      const sparse = clone(model);
      for (const c of sparse.channels) if (c.id === 'tradesByType' || c.id === 'spotFeed') c.examples = [];
      const sparseFiles = emitDocs(sparse);
      const byType = section(channelPage(sparse, 'tradesByType', sparseFiles), 'tradesByType');
      expect(byType).toContain('which carries the same payload');
      expect(byType).toMatch(/"channel": "trades\.perp\./);
      expect(section(channelPage(sparse, 'spotFeed', sparseFiles), 'spotFeed')).toContain('No example in the spec.');
      const method = (name: string) => pageOf(site.method(model.methods.find((m) => m.name === name)!));
      expect(method('public/login')).toContain('"method": "public/login"');
      expect(method('private/get_subaccounts')).toContain('POST https://{base_url}/v3/private/get_subaccounts');
    },
  );

  it('fills a channel address from an address the spec writes, else from the payload and the allowed values', () => {
    const orderbook = model.channels.find((c) => c.id === 'orderbook')!;
    expect(exampleAddress(orderbook, orderbook.examples[0], [{ channels: ['orderbook.ETH-PERP.10.10'] }])).toBe(
      'orderbook.ETH-PERP.10.10',
    );
    expect(exampleAddress(orderbook, orderbook.examples[0], [{ channels: ['orderbook.BTC-PERP.10.10'] }])).toBe(
      'orderbook.ETH-PERP.1.1',
    );
  });

  it('indexes channels, methods, records, fields and enumeration values for the search', () => {
    const labels = searchEntries(model, site).map((e) => e[1]);
    expect(labels).toEqual(
      expect.arrayContaining([
        'cancel_all',
        'OrderbookPayload.publish_id',
        'CancelReason.insufficient_margin',
        'orderbook.{instrument_name}.{group}.{depth}',
        'Order',
      ]),
    );
    expect(file('assets/search-index.js')).toMatch(/^window\.DOCS_SEARCH = \{/);
  });

  // Generation time is a benchmark (npm run bench -- docs, target < 1 s), not a timed test: these
  // machines are noisy. Size is exact, so it is a test.
  // The measure is a reader's (issue 30): each page with what it loads, not the whole site, which
  // grows with the API (112 methods and 270 records: 1.3 MB) while no reader loads more than a page.
  const BUDGET = 300_000;

  it('is deterministic, on our spec and split by group', () => {
    expect(emitDocs(model)).toEqual(files);
    expect(emitDocs(grouped)).toEqual(emitDocs(grouped));
  });

  it('weighs under 300 kB per page: each page of our site split by group, with the CSS and JS it loads', () => {
    const pages = pageWeights(emitDocs(grouped));
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter(([, bytes]) => bytes >= BUDGET)).toEqual([]);
    // Every page loads the search index, the script and the stylesheet: they are weighed with each page.
    expect(pages.every(([, , assets]) => assets.length === 3)).toBe(true);
  });

  it('weighs under 300 kB per page with a Changes page too (docs --since an older spec with a few changes)', () => {
    // The older spec: one channel and one method fewer, a record with a field fewer, an enumeration with a value fewer.
    const before = clone(grouped);
    before.channels = before.channels.filter((c) => c.id !== 'walletRfqs');
    before.methods = before.methods.filter((m) => m.name !== 'private/cancel_by_label');
    const order = before.types.find((t) => t.name === 'Order')!;
    order.fields = order.fields!.filter((f) => f.name !== 'label');
    const reason = before.types.find((t) => t.name === 'CancelReason')!;
    reason.values = reason.values!.slice(1);
    const changes = diffModels(before, grouped);
    expect(changes.length).toBeGreaterThanOrEqual(2);
    const out = emitDocs(grouped, { changes: { since: { file: 'old.yaml', version: '0.1.0' }, changes } });
    expect(out.map((f) => f.path)).toContain('changes.html');
    expect(pageWeights(out).filter(([, bytes]) => bytes >= BUDGET)).toEqual([]);
  });

  it("frames pushed notifications with the method the spec's notification frame gives", () => {
    expect(notificationMethod(model)).toBe('subscription');
    const renamed = clone(model);
    const frame = renamed.types.find((t) => t.name === renamed.roles.notificationFrame)!;
    (renamed.schemas[frame.name]!.properties as Record<string, { const?: string }>).method!.const = 'push';
    expect(section(channelPage(renamed, 'orderbook', emitDocs(renamed)), 'orderbook')).toContain('"method": "push"');
  });

  it('matches the repository copy in packages/docs/site (fix: npm run generate)', () => {
    const dir = join(root, 'packages', 'docs', 'site');
    const result = writeFiles(files, { docs: dir }, { check: true, specName: 'spec/asyncapi.yaml', cwd: root });
    expect(result.differing).toEqual([]);
    // Files nothing emits any more are drift too, whatever the writer's own sweep covers.
    const list = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? list(join(d, e.name)) : [relative(dir, join(d, e.name))],
      );
    expect(existsSync(dir) ? list(dir).sort() : []).toEqual([MANIFEST_NAME, ...files.map((f) => f.path)].sort());
  });
});

describe('emitDocs refuses an invalid example, naming its place', () => {
  it('a channel example', () => {
    const m = clone(model);
    m.channels.find((c) => c.id === 'orderbook')!.examples = [
      { instrument_name: 'ETH-PERP', publish_id: 'not a number' },
    ];
    expect(() => emitDocs(m)).toThrow(
      /invalid example: channel orderbook \(orderbook\.\{instrument_name\}\.\{group\}\.\{depth\}\) example 1: /,
    );
  });

  it("a method's params example", () => {
    const m = clone(model);
    m.methods.find((x) => x.name === 'public/login')!.paramsExamples = [{ wallet: 42 }];
    expect(() => emitDocs(m)).toThrow(/invalid example: method public\/login params example 1: /);
  });

  it('a schema example', () => {
    const m = clone(model);
    m.types.find((t) => t.name === 'Decimal')!.examples = ['twelve'];
    expect(() => emitDocs(m)).toThrow(/invalid example: schema Decimal example 1: \/ must match pattern/);
  });
});

describe('emitDocs checks string formats as the validators do', () => {
  const spec = miniSpec(`channels:
  posts:
    address: posts
    messages:
      Posted:
        payload:
          type: object
          required: [at]
          properties: { at: { type: string, format: date-time }, tag: { type: string, format: x-house-id } }
        examples: [{ payload: { at: '2026-11-25T10:00:00Z', tag: 'a1' } }]
operations:
  onPosts: { action: receive, channel: { $ref: '#/channels/posts' } }`);

  it(
    'a valid date-time passes without a word on the console (ajv warned of an ' +
      'unknown format before); an unknown format is not checked',
    async () => {
      const m = await modelFromSpec(writeSpec(spec));
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        expect(emitDocs(m).length).toBeGreaterThan(0);
        expect([...warn.mock.calls, ...log.mock.calls]).toEqual([]);
      } finally {
        warn.mockRestore();
        log.mockRestore();
      }
    },
  );

  it(
    'an API without methods says so on the overview (no empty table); a server ' + 'without a title is named once',
    async () => {
      const m = await modelFromSpec(
        writeSpec(spec.replace('channels:', 'servers:\n  live: { host: feed.example.com, protocol: wss }\nchannels:')),
      );
      const index = emitDocs(m).find((f) => f.path === 'md/index.md')!.content;
      expect(index).toContain('This API has no methods.');
      expect(index).not.toContain('| Method | Transports |');
      expect(index).toContain('| <a id="server-live"></a>`live` | `wss://feed.example.com` |');
    },
  );

  it('an invalid date-time is refused, naming its place', async () => {
    const m = await modelFromSpec(writeSpec(spec));
    m.channels[0]!.examples = [{ at: 'yesterday', tag: 'a1' }];
    expect(() => emitDocs(m)).toThrow(
      /invalid example: channel posts \(posts\) example 1: \/at must match format "date-time"/,
    );
  });
});

describe('emitDocs on a model of another API', () => {
  const tiny: ApiModel = {
    source: 'tiny.yaml',
    title: 'Tiny API',
    version: '1.0.0',
    description: 'A weather feed.',
    servers: [
      {
        id: 'main',
        host: 'example.test',
        protocol: 'wss',
        pathname: '/ws',
        transport: 'ws',
        title: 'Main',
        description: '',
        variables: [],
      },
    ],
    schemas: {
      Reading: {
        type: 'object',
        required: ['celsius'],
        properties: { celsius: { type: 'number' }, unit: { $ref: '#/definitions/Unit' } },
      },
      Unit: { type: 'string', enum: ['C', 'F'] },
    },
    types: [
      {
        name: 'Reading',
        kind: 'record',
        description: '',
        refs: ['Unit'],
        examples: [{ celsius: 21 }],
        open: false,
        fields: [
          { name: 'celsius', required: true, nullable: false, type: 'number', refs: [], description: '' },
          {
            name: 'unit',
            required: false,
            nullable: false,
            type: 'Unit',
            refs: ['Unit'],
            description: '',
            default: 'C',
          },
        ],
      },
      { name: 'Unit', kind: 'enum', description: '', refs: [], examples: [], values: ['C', 'F'] },
    ],
    channels: [
      {
        id: 'weather',
        address: 'weather.{city}',
        title: 'Weather',
        description: '',
        access: 'public',
        parameters: [{ name: 'city', description: '', enum: null }],
        payload: { schema: { $ref: '#/definitions/Reading' }, record: 'Reading', array: false },
        examples: [{ celsius: 19.5, unit: 'C' }],
        exampleAddresses: [null],
      },
    ],
    methods: [],
    errors: { reserved: [], codes: [] },
    limits: [],
    rateLimitClasses: [],
    login: null,
    actionSignature: null,
    assumptions: [],
    notShown: [],
    roles: { subscribe: null, notificationFrame: null, requestFrame: null, responseFrame: null, errorObject: null },
    defaults: [],
  };

  it('writes a complete site with resolving links and no placeholders from missing parts', () => {
    const out = emitDocs(tiny);
    expect(brokenLinks(out, '.html')).toEqual([]);
    const all = out.map((f) => f.content).join('\n');
    expect(all).not.toMatch(/undefined|\[object Object\]|NaN/);
    // No page for what the spec does not have (no x-login, x-errors, x-limits, nothing left open), in the
    // navigation neither.
    expect(out.map((f) => f.path).filter((p) => /^(md\/)?(login|errors|limits|open)\.(html|md)$/.test(p))).toEqual([]);
    expect(out.find((f) => f.path === 'index.html')!.content).not.toMatch(/href="(login|errors|limits|open)\.html/);
    expect(out.find((f) => f.path === 'channels.html')!.content).toMatch(
      /"channel": ?"weather\.\{city\}","data": ?\{"celsius":19\.5/,
    );
  });
});

describe("the docs emitter is spec-agnostic: meaning comes from the model's roles (x-role), never from names", () => {
  it('names no schema, method or assumption of this API in its source', () => {
    const dir = join(root, 'tools', 'codegen', 'src', 'emit', 'docs');
    const names = [
      'RPCError',
      'SubscriptionNotification',
      'JsonRpcRequest',
      'JsonRpcResponse',
      "'subscribe'",
      "'subscription'",
      "'notification-frame'",
      "'public/",
      "'private/",
    ];
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const name of names) expect(text.includes(name), `${file} names ${name}`).toBe(false);
    }
  });

  it("another API's subscribe method, notification frame and error object, each named by its role", () => {
    const m = clone(model);
    const rename = <T extends { name: string }>(list: T[], from: string, to: string) =>
      list.filter((x) => x.name === from).forEach((x) => (x.name = to));
    // Rename the role holders; the docs must follow the roles, not the old names.
    const sub = m.methods.find((x) => x.id === m.roles.subscribe)!;
    sub.name = 'watch';
    m.schemas.Push = m.schemas[m.roles.notificationFrame!]!;
    (m.schemas.Push.properties as Record<string, { const?: string }>).method!.const = 'tick';
    rename(m.types, m.roles.notificationFrame!, 'Push');
    m.roles.notificationFrame = 'Push';
    m.schemas.Failure = m.schemas[m.roles.errorObject!]!;
    rename(m.types, m.roles.errorObject!, 'Failure');
    m.roles.errorObject = 'Failure';
    const out = emitDocs(m);
    const channels = channelPage(m, 'orderbook', out);
    expect(section(channels, 'orderbook')).toContain('"method": "tick"');
    expect(section(channels, 'orderbook')).toMatch(/Subscribe with <a href="methods(-[a-z0-9-]+)?\.html#/);
    expect(section(channels, 'orderbook')).toContain('<code>watch</code>');
    expect(out.find((f) => f.path === 'errors.html')!.content).toMatch(
      /JSON-RPC error object \(<a [^>]*><code>Failure<\/code>/,
    );
    // With no roles, the frames the client assumes (the defaults of a plain spec), each said to be assumed.
    m.roles = { subscribe: null, notificationFrame: null, requestFrame: null, responseFrame: null, errorObject: null };
    const bare = section(channelPage(m, 'orderbook', emitDocs(m)), 'orderbook');
    expect(bare).toContain('"method": "subscription"');
    expect(bare).toContain(
      'The spec names no notification frame (no <code>x-role</code>): this is the frame the client assumes.',
    );
    expect(bare).toMatch(
      new RegExp(
        /Subscribe with the JSON-RPC method <code>subscribe<\/code>, /.source +
          /params <code>\{(&quot;|")channels(&quot;|"):\[(&quot;|")orderbook\./.source,
      ),
    );
    expect(bare).toContain(
      'the spec names no subscribe method (no <code>x-role</code>), so this is what the client sends.',
    );
    expect(bare).not.toContain('Subscribe with <a');
  });
});
