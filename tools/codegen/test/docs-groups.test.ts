/**
 * The docs site split by group (issue 30, item 6): a method's or channel's group is its operation's
 * first AsyncAPI tag, read by the model builder; with two groups or more each has its own channels,
 * methods and records pages, every link and anchor resolves and search leads to the right page. A
 * spec without tags keeps one page of each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emitDocs, modelFromSpec, searchEntries, SEARCH_KINDS, SiteMap, type ApiModel } from '../src/index';
import type { EmittedFile } from '../src/index';
import { brokenLinks, clone, idsOf, ledgerFile, repoModel, root, taggedModel } from './docs-helpers';
import { writeSpec } from './helpers';

/** A shop: methods tagged `Orders` (one by a `$ref` to components/tags) and one untagged; channels likewise. */
const SHOP = `asyncapi: 3.0.0
info: { title: Shop, version: 1.0.0 }
channels:
  rpc:
    address: null
    messages:
      PlaceRequest: { payload: { $ref: '#/components/schemas/PlaceParams' } }
      PlaceReply: { payload: { $ref: '#/components/schemas/Fill' } }
      CancelRequest: { payload: { $ref: '#/components/schemas/CancelParams' } }
      CancelReply: { payload: { type: string } }
      TimeRequest: { payload: { type: object } }
      TimeReply: { payload: { type: integer } }
  prices:
    address: prices.{item}
    messages:
      Price: { payload: { $ref: '#/components/schemas/Price' } }
  fills:
    address: fills
    messages:
      Fill: { payload: { $ref: '#/components/schemas/Fill' } }
operations:
  placeOrder:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/PlaceRequest' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/PlaceReply' }] }
    x-method: order/place
    tags: [{ name: Orders }, { name: Trading }]
  cancelOrder:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/CancelRequest' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/CancelReply' }] }
    x-method: order/cancel
    tags: [{ $ref: '#/components/tags/orders' }]
  getTime:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/TimeRequest' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/TimeReply' }] }
    x-method: time/get
  receivePrices:
    action: receive
    channel: { $ref: '#/channels/prices' }
    tags: [{ name: Market data }]
  receiveFills:
    action: receive
    channel: { $ref: '#/channels/fills' }
components:
  tags:
    orders: { name: Orders, description: Placing and cancelling orders. }
  schemas:
    PlaceParams:
      type: object
      required: [item, amount]
      properties:
        item: { type: string }
        amount: { $ref: '#/components/schemas/Amount' }
        leg: { $ref: '#/components/schemas/Leg' }
    Leg:
      type: object
      properties: { item: { type: string } }
    CancelParams:
      type: object
      required: [id]
      properties: { id: { type: string } }
    Fill:
      type: object
      required: [id, amount]
      properties: { id: { type: string }, amount: { $ref: '#/components/schemas/Amount' } }
    Price:
      type: object
      required: [item, price]
      properties: { item: { type: string }, price: { $ref: '#/components/schemas/Amount' } }
    Unused:
      type: object
      properties: { note: { type: string } }
    Amount:
      type: string
      pattern: '^[0-9]+$'
`;

const paths = (files: EmittedFile[]) => files.map((f) => f.path);
const content = (files: EmittedFile[], path: string) => {
  const f = files.find((x) => x.path === path);
  if (!f) throw new Error(`no ${path} among ${paths(files).join(', ')}`);
  return f.content;
};
/** The sidebar of a page, and its main content. */
const sidebar = (html: string) => html.slice(html.indexOf('<nav'), html.indexOf('</nav>'));
const main = (html: string) => html.slice(html.indexOf('<main'));
/** Every internal link of the HTML and of the Markdown pages, broken. */
const allBroken = (files: EmittedFile[]) => [
  ...brokenLinks(files, '.html'),
  ...brokenLinks(
    files.filter((f) => f.path.startsWith('md/')).map((f) => ({ ...f, path: f.path.slice(3) })),
    '.md',
  ),
];

describe('the model reads each operation’s first tag as its group', () => {
  let shop: ApiModel;
  beforeAll(async () => {
    shop = await modelFromSpec(writeSpec(SHOP), root);
  });

  it('a method’s group is its first tag (a `$ref` to components/tags read too); untagged, none', () => {
    expect(shop.methods.map((m) => [m.name, m.group])).toEqual([
      ['order/place', 'Orders'],
      ['order/cancel', 'Orders'],
      ['time/get', undefined],
    ]);
    expect(shop.methods.find((m) => m.name === 'time/get')).not.toHaveProperty('group');
  });

  it('a channel’s group is that of the operation the client receives it by', () => {
    expect(shop.channels.map((c) => [c.id, c.group])).toEqual([
      ['prices', 'Market data'],
      ['fills', undefined],
    ]);
  });

  it('splits the site: a page per group, the untagged as "Other", records by the one group that uses them', () => {
    const files = emitDocs(shop);
    expect(paths(files).filter((p) => p.endsWith('.html'))).toEqual([
      'index.html',
      'channels.html',
      'channels-market-data.html',
      'channels-other.html',
      'methods.html',
      'methods-orders.html',
      'methods-other.html',
      'records.html',
      'records-market-data.html',
      'records-orders.html',
      'enums.html',
    ]);
    const site = new SiteMap(shop);
    // Leg is used only through PlaceParams; Fill by an Orders method and an untagged channel; Unused by none.
    expect(
      Object.fromEntries(
        ['PlaceParams', 'Leg', 'CancelParams', 'Price', 'Fill', 'Unused', 'Amount'].map((n) => [
          n,
          site.typeRef(n)!.page,
        ]),
      ),
    ).toEqual({
      PlaceParams: 'records-orders',
      Leg: 'records-orders',
      CancelParams: 'records-orders',
      Price: 'records-market-data',
      Fill: 'records',
      Unused: 'records',
      Amount: 'records',
    });
    const index = main(content(files, 'methods.html'));
    expect(index).toContain('<h2 id="methods-orders"><a href="methods-orders.html">Orders</a> (2 methods)</h2>');
    expect(index).toContain('<a href="methods-orders.html#order-place">order/place</a>');
    expect(index).toContain('<a href="methods-other.html#time-get">time/get</a>');
    const orders = content(files, 'methods-orders.html');
    expect([...idsOf(main(orders))].filter((id) => !/-(params|result|example)$/.test(id))).toEqual([
      'main',
      'order-place',
      'order-cancel',
    ]);
    // On a group's page the sidebar lists that group's methods under it, and every group's page.
    expect(sidebar(orders)).toContain(
      '<li><a href="methods-orders.html" aria-current="page">Orders</a>' +
        '<ul class="mono"><li><a href="#order-place">order/place</a>',
    );
    expect(sidebar(orders)).toContain('<a href="records-market-data.html">Market data</a>');
    expect(sidebar(content(files, 'methods-other.html'))).not.toContain('#order-place');
    expect(main(content(files, 'records.html'))).toContain('<p><a href="records-orders.html">Orders</a></p>');
    expect(allBroken(files)).toEqual([]);
  });

  it('a tag named like the default group, or with no letters of ours, still gets a page of its own', async () => {
    const spec = SHOP.replace('tags: [{ name: Orders }, { name: Trading }]', 'tags: [{ name: Other }]').replace(
      'tags: [{ name: Market data }]',
      "tags: [{ name: 'Рынок' }]",
    );
    const files = emitDocs(await modelFromSpec(writeSpec(spec), root));
    expect(paths(files).filter((p) => /^(channels|methods)-/.test(p))).toEqual([
      'channels-group.html',
      'channels-other-2.html',
      'methods-other.html',
      'methods-orders.html',
      'methods-other-2.html',
    ]);
    expect(content(files, 'methods.html')).toContain('<a href="methods-other-2.html">Other</a> (1 method)');
    expect(allBroken(files)).toEqual([]);
  });
});

describe('a spec without tags keeps one page of each', () => {
  it('the ledger fixture, and a spec whose operations all carry the same tag', async () => {
    const ledger = await modelFromSpec(ledgerFile, root);
    const plain = paths(emitDocs(ledger)).filter((p) => p.endsWith('.html'));
    expect(plain).toEqual(['index.html', 'channels.html', 'methods.html', 'records.html', 'enums.html', 'errors.html']);
    const one = clone(ledger);
    for (const c of one.channels) c.group = 'Ledger';
    for (const m of one.methods) m.group = 'Ledger';
    expect(emitDocs(one)).toEqual(emitDocs(ledger));
  });
});

describe('our spec split by group (tagged by topic in this test, before the spec has tags)', () => {
  let model: ApiModel;
  let files: EmittedFile[];
  let site: SiteMap;
  beforeAll(async () => {
    model = taggedModel(await repoModel());
    files = emitDocs(model);
    site = new SiteMap(model);
  });

  it('has a methods page per group holding exactly its methods, and an index listing every method', () => {
    const groups = site.layout.methods;
    expect(groups.length).toBeGreaterThanOrEqual(5);
    expect(groups.flatMap((g) => g.items).length).toBe(model.methods.length);
    const index = main(content(files, 'methods.html'));
    for (const g of groups) {
      const page = content(files, `${g.page}.html`);
      const sections = [...main(page).matchAll(/<h2 id="([^"]+)">/g)].map((m) => m[1]);
      expect(sections, g.page).toEqual(g.items.map((m) => site.method(m).anchor));
      for (const m of g.items) {
        expect(site.method(m).page).toBe(g.page);
        expect(index).toContain(`href="${g.page}.html#${site.method(m).anchor}"`);
      }
    }
    for (const g of site.layout.channels) {
      const sections = [...main(content(files, `${g.page}.html`)).matchAll(/<h2 id="([^"]+)">/g)].map((m) => m[1]);
      expect(sections, g.page).toEqual(g.items.map((c) => site.channel(c).anchor));
    }
  });

  it('puts every record and field on exactly one page, the one its links and the search lead to', () => {
    const recordPages = paths(files).filter((p) => /^records(-.+)?\.html$/.test(p));
    expect(recordPages.length).toBeGreaterThan(3);
    const ids = new Map(recordPages.map((p) => [p, idsOf(main(content(files, p)))]));
    for (const t of model.types.filter((x) => x.kind !== 'enum')) {
      const holders = recordPages.filter((p) => ids.get(p)!.has(t.name));
      expect(holders, t.name).toEqual([`${site.typeRef(t.name)!.page}.html`]);
      for (const f of t.fields ?? []) expect(ids.get(holders[0]!)!.has(`${t.name}.${f.name}`), t.name).toBe(true);
    }
    // A group's own records are used by that group alone; the payload of the orderbook is market data's.
    const orderbook = model.channels.find((c) => c.id === 'orderbook')!;
    expect(site.typeRef(orderbook.payload.record!)!.page).toBe(`records-${site.channel(orderbook).page.slice(9)}`);
  });

  it('finds every channel, method, record and field by name in the search index, on its page', () => {
    const entries = searchEntries(model, site);
    const byPage = new Map(files.filter((f) => f.path.endsWith('.html')).map((f) => [f.path, idsOf(f.content)]));
    const kinds = ['channel', 'method', 'record', 'field'].map((k) => (SEARCH_KINDS as readonly string[]).indexOf(k));
    const checked = new Set<number>();
    for (const [kind, label, href] of entries.filter((e) => kinds.includes(e[0]))) {
      const [page, anchor] = href.split('#') as [string, string];
      expect(byPage.get(page)?.has(anchor), `${label} → ${href}`).toBe(true);
      checked.add(kind);
    }
    expect(checked.size).toBe(4);
    const labels = new Set(entries.map((e) => e[1]));
    for (const m of model.methods) expect(labels.has(m.name), m.name).toBe(true);
    for (const c of model.channels) expect(labels.has(c.address), c.address).toBe(true);
    // The index the browser reads holds the group pages.
    expect(content(files, 'assets/search-index.js')).toContain('"methods-orders.html"');
  });

  it('resolves every link and anchor of the HTML and the Markdown; every sidebar reaches every page', () => {
    expect(allBroken(files)).toEqual([]);
    const pages = paths(files).filter((p) => p.endsWith('.html'));
    for (const page of pages) {
      const targets = new Set([...sidebar(content(files, page)).matchAll(/href="([^"#]*)/g)].map((m) => m[1] || page));
      expect(
        pages.filter((p) => !targets.has(p)),
        page,
      ).toEqual([]);
    }
  });
});
