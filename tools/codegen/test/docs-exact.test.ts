/**
 * What the review of issue 16 found missing, each on a spec that has it: integers beyond 2^53 exact
 * wherever the docs print a number of the spec (enumeration values, defaults, example payloads), not
 * only in constraints; a method's request and reply message titles and summaries; every example its
 * own anchor, and search hits that land there, params and result told apart; constraints of records
 * built with `allOf` and of named types in the field tables where a record is used; the HTML error
 * table; one period after a summary that has its own.
 */
import { describe, expect, it } from 'vitest';
import { emitDocs, modelFromSpec, searchEntries, SiteMap, type ApiModel, type EmittedFile } from '../src/index';
import { idsOf, ledgerFile, ledgerVariant, repoModel, root } from './docs-helpers';

const page = (files: EmittedFile[], path: string) => files.find((f) => f.path === path)?.content ?? '';
/** The HTML as a reader sees its text: tags and break hints dropped, entities decoded. */
const text = (html: string) =>
  html
    .replace(/<wbr>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
/** The HTML of the section that starts at an id, up to the next heading of level 2 or 3. */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  const end = html.slice(start).search(/<h[23] /);
  return html.slice(start, end === -1 ? undefined : start + end);
}

let variant: Promise<ApiModel> | null = null;
const variantModel = () => (variant ??= modelFromSpec(ledgerVariant(), root));

describe('the docs print every integer of the spec beyond 2^53 as written (ledger variant)', () => {
  it('in enumeration values, their anchors and search labels', async () => {
    const m = await variantModel();
    const files = emitDocs(m);
    const enums = page(files, 'enums.html');
    expect(enums).toContain('<li id="Tier.9223372036854775807">9223372036854775807');
    expect(enums).toContain('<li id="Tier.-9223372036854775808">-9223372036854775808');
    expect(page(files, 'md/enums.md')).toContain('9223372036854775807');
    const labels = searchEntries(m, new SiteMap(m)).map((e) => e[1]);
    expect(labels).toEqual(expect.arrayContaining(['Tier.9223372036854775807', 'Tier.-9223372036854775808']));
  });

  it('in defaults, example payloads (in their frames and alone) and the search index', async () => {
    const files = emitDocs(await variantModel());
    const all = files.map((f) => f.content).join('\n');
    expect(page(files, 'records.html')).toMatch(/<tr id="BalanceParams\.limit">.*<code>9223372036854775807<\/code>/);
    const methods = page(files, 'methods.html');
    expect(methods).toContain('"last_seq": 18446744073709551615');
    expect(methods).toContain('"tier": 9223372036854775807');
    expect(methods).toContain('"limit":9223372036854775807');
    expect(methods).toContain('"limit":-9223372036854775808');
    expect(methods).toContain('"tier":-9223372036854775808');
    expect(page(files, 'channels.html')).toContain(
      '{"seq":18446744073709551615,"offset":9223372036854775807,"amount":"1"}',
    );
    // No rounded double anywhere: 2^63 and 2^64 as JavaScript prints them.
    expect(all).not.toMatch(
      /9223372036854776000|18446744073709552000|9223372036854775808(?!\d)(?<!-9223372036854775808)/,
    );
  });

  it('and the same on our spec: nothing rounded anywhere', async () => {
    const all = emitDocs(await repoModel())
      .map((f) => f.content)
      .join('\n');
    expect(all).not.toMatch(/9223372036854776000|18446744073709552000/);
  });
});

describe('method messages and examples (ledger variant)', () => {
  it(
    "show the request's and the reply's message title and summary in the method's " + 'section, HTML and Markdown',
    async () => {
      const m = await variantModel();
      const files = emitDocs(m);
      const html = text(sectionOf(page(files, 'methods.html'), 'balance-get').replace(/<h2[^>]*>/, ''));
      for (const line of [
        "Request message: balance request (BalanceRequest). Asks for an account's balance.",
        'Reply message: balance reply (BalanceReply). The balance, with the last sequence posted.',
      ])
        expect(html + text(page(files, 'methods.html')), line).toContain(line);
      const md = page(files, 'md/methods.md');
      expect(md).toContain("Request message: **balance request** (`BalanceRequest`). Asks for an account's balance.");
      expect(md).toContain(
        'Reply message: **balance reply** (`BalanceReply`). The balance, with the last sequence posted.',
      );
    },
  );

  it('give every example its own anchor, on the figure captioned with its name', async () => {
    const m = await variantModel();
    const site = new SiteMap(m);
    const files = emitDocs(m);
    const method = m.methods[0]!;
    const channel = m.channels[0]!;
    const anchors = [
      ...method.paramsExamples.map((_, i) => [
        site.example(method, 'params', i).anchor!,
        method.paramsExampleInfo![i]!.name!,
      ]),
      ...method.resultExamples.map((_, i) => [
        site.example(method, 'result', i).anchor!,
        method.resultExampleInfo![i]!.name!,
      ]),
    ];
    const channelAnchors = channel.examples.map((_, i) => [
      site.example(channel, 'payload', i).anchor!,
      channel.exampleInfo![i]!.name!,
    ]);
    expect(new Set([...anchors, ...channelAnchors].map((a) => a[0])).size).toBe(anchors.length + channelAnchors.length);
    for (const [path, list] of [
      ['methods.html', anchors],
      ['channels.html', channelAnchors],
    ] as const)
      for (const [anchor, name] of list)
        expect(page(files, path), anchor).toMatch(
          new RegExp(`<figure id="${anchor}"><figcaption>[^]*?<code>${name}</code>`),
        );
  });

  it("search hits for examples land on their own anchors; a method's are labelled params or result", async () => {
    const m = await variantModel();
    const files = emitDocs(m);
    const hits = searchEntries(m, new SiteMap(m)).filter((e) => e[0] === 10);
    const hrefs = hits.map((e) => e[2]);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    for (const href of hrefs) {
      const [file, anchor] = href.split('#');
      expect(idsOf(page(files, file!)), href).toContain(anchor);
    }
    expect(hits.map((e) => e[1])).toEqual(
      expect.arrayContaining([
        'first account (params)',
        'last account (params)',
        'first balance (result)',
        'second balance (result)',
        'reversal',
        'at the limits',
      ]),
    );
    expect(hits.find((e) => e[1] === 'reversal')![2]).toBe('channels.html#entries-example-2');
  });

  it("on our spec too: a second example's hit does not land on the first's anchor", async () => {
    const m = await repoModel();
    const hits = searchEntries(m, new SiteMap(m)).filter((e) => e[0] === 10);
    expect(hits.length).toBeGreaterThan(10);
    expect(new Set(hits.map((e) => e[2])).size).toBe(hits.length);
    expect(hits.some((e) => e[1].endsWith(' (params)')) && hits.some((e) => e[1].endsWith(' (result)'))).toBe(true);
  });

  it('write one period after a summary that ends with its own', async () => {
    for (const m of [await variantModel(), await modelFromSpec(ledgerFile, root), await repoModel()]) {
      const files = emitDocs(m);
      for (const f of files.filter((x) => /^(md\/)?(channels|methods)\.(html|md)$/.test(x.path)))
        expect(text(f.content), f.path).not.toMatch(/[^.]\.\.(?!\.)/);
    }
  });
});

describe('field tables where a record is used show its constraints', () => {
  it("of a record built with allOf: the nonce pattern in the method's own table (ledger variant)", async () => {
    const files = emitDocs(await variantModel());
    expect(sectionOf(page(files, 'methods.html'), 'balance-get-params')).toContain(
      '<tr><td>nonce<td>string<td>yes<td>pattern ^[0-9]{1,32}$',
    );
    expect(sectionOf(page(files, 'records.html'), 'BalanceParams')).toContain('pattern <code>^[0-9]{1,32}$</code>');
  });

  it(
    'of our signed order-flow methods: the nonce constraints inline for private/order ' +
      'and private/replace, and on the records page',
    async () => {
      const m = await repoModel();
      const site = new SiteMap(m);
      const files = emitDocs(m);
      // The order flow's signed methods (every signing method names its module; these two carry the order's nonce).
      const signed = m.methods.filter((x) => x.actionModule === 'trade' && x.orderFlow);
      expect(signed.map((x) => x.name)).toEqual(['private/order', 'private/replace']);
      const nonce = site.typeRef('ActionNonceInput')!;
      for (const x of signed) {
        const at = site.method(x, 'params');
        expect(sectionOf(page(files, `${at.page}.html`), at.anchor!), x.name).toContain(
          `<tr><td>nonce<td><a href="${nonce.page}.html#ActionNonceInput">ActionNonceInput</a><td>yes<td>` +
            'pattern ^[0-9]{1,78}$ or minimum 0',
        );
      }
      expect(sectionOf(page(files, `${nonce.page}.html`), 'ActionNonceInput')).toContain(
        'pattern <code>^[0-9]{1,78}$</code> or minimum <code>0</code>',
      );
    },
  );

  it(
    'of named types: Decimal its pattern, Int64 as int64 (not its two 19-digit ' +
      'bounds), a union per branch (our spec)',
    async () => {
      const files = emitDocs(await repoModel());
      // Every channels and methods page: one each, or one per group where the spec tags its operations.
      const every = (kind: string) =>
        files
          .filter((f) => new RegExp(`^${kind}(-[a-z0-9-]+)?\\.html$`).test(f.path))
          .map((f) => f.content)
          .join('');
      const channels = every('channels');
      const methods = every('methods');
      expect(channels).toMatch(
        new RegExp(
          /<tr><td>amount<td><a href="records\.html#Decimal">Decimal<\/a><td>yes<td>/.source +
            /pattern \^-\?\[0-9\]\+\(\\\.\[0-9\]\{1,12\}\)\?\$/.source,
        ),
      );
      expect(methods).toMatch(
        /<tr><td>subaccount_id<td><a href="records\.html#Int64">Int64<\/a><td>yes<td>int64(?![\w,])/,
      );
      expect(methods).toMatch(
        new RegExp(
          /<td><a href="records\.html#NonNegativeDecimalInput">NonNegativeDecimalInput<\/a><td>yes<td>/.source +
            /pattern \^\[0-9\]\+\(\\\.\[0-9\]\{1,12\}\)\?\$ or minimum 0/.source,
        ),
      );
    },
  );

  it("of the elements of an array result: public/get_all_currencies shows Currency's fields", async () => {
    const m = await repoModel();
    const site = new SiteMap(m);
    const files = emitDocs(m);
    const x = m.methods.find((y) => y.name === 'public/get_all_currencies')!;
    const at = site.method(x, 'result');
    const part = sectionOf(page(files, `${at.page}.html`), at.anchor!);
    const t = m.types.find((y) => y.name === 'Currency')!;
    const record = site.typeRef('Currency')!;
    expect(part).toContain(`array of <a href="${record.page}.html#Currency">`);
    for (const f of t.fields!) expect(part).toContain(`<tr><td>${f.name}<td>`);
  });
});

describe.each([
  ['our spec', repoModel],
  ['a second API (ledger)', () => modelFromSpec(ledgerFile, root)],
])('the HTML error table of %s', (_name, load) => {
  it('lists every error with code, stable name, message, kind and HTTP status, each row its anchor', async () => {
    const m = await load();
    const site = new SiteMap(m);
    const html = page(emitDocs(m), 'errors.html');
    expect(html).toContain('<thead><tr><th>Code<th>Name<th>Message<th>Kind<th>HTTP');
    const named = m.errors.codes.filter((e) => e.name);
    expect(named.length).toBeGreaterThan(0);
    for (const e of named) {
      const esc = (s: string) =>
        s
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(html).toMatch(
        new RegExp(
          `<tr id="${site.errorRef(e.code).anchor}"><td><code>${e.code}</code><td><code>` +
            `${e.name}</code><td>${esc(e.message)}(?: <a [^>]*>[^<]*</a>)?<td>${e.kind}` +
            `<td>${e.httpStatus}<td>`,
        ),
      );
    }
  });
});
