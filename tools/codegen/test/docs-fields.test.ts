/**
 * Fields where they are used: a channel's section shows its payload record's fields, a method's its
 * params' and result's (name, type, required, constraints), not only one click away on the records
 * page; for our spec and for a second API. Read from the Markdown pages (the same document tree as
 * the HTML); the HTML's tables are checked in Chromium by packages/docs/test/browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { emitDocs, modelFromSpec, SiteMap, type ApiModel, type TypeModel } from '../src/index';
import { repoModel, root } from './docs-helpers';

const ledgerFile = new URL('./fixtures/ledger.asyncapi.yaml', import.meta.url).pathname;

/** The first table of the section that starts at an anchor (up to the next heading): its head and rows, cells split. */
function tableAfter(md: string, anchor: string): { head: string[]; rows: string[][] } {
  const start = md.indexOf(`<a id="${anchor}"></a>`);
  expect(start, anchor).toBeGreaterThan(-1);
  const rest = md.slice(md.indexOf('\n', start) + 1);
  const end = rest.search(/^#{1,3} /m);
  const lines = rest
    .slice(0, end === -1 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('| '));
  // Cells split on unescaped bars (`\|` is a bar inside a cell: `Order \| null`).
  const cells = (l: string) =>
    l
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((c) => c.trim());
  return { head: lines[0] ? cells(lines[0]) : [], rows: lines.slice(2).map(cells) };
}

/**
 * The record shown where each channel and method uses one: a channel's payload, a method's params and result
 * (or what the spec assumes for them).
 */
function usesOf(model: ApiModel, site: SiteMap): Array<{ page: string; anchor: string; t: TypeModel; where: string }> {
  const record = (name: string | null | undefined) => {
    let t = model.types.find((x) => x.name === name);
    // An array of records (public/get_all_currencies' result) shows its element's fields.
    const items =
      t?.kind === 'array' ? (model.schemas[t.name]?.items as { $ref?: string } | undefined)?.$ref : undefined;
    if (items?.startsWith('#/definitions/'))
      t = model.types.find((x) => x.name === items.slice('#/definitions/'.length));
    return t?.kind === 'record' && t.fields?.length ? t : undefined;
  };
  const out: Array<{ page: string; anchor: string; t: TypeModel; where: string }> = [];
  for (const c of model.channels) {
    const t = record(c.payload.record);
    if (t) {
      const at = site.channel(c, 'payload');
      out.push({ page: `md/${at.page}.md`, anchor: at.anchor!, t, where: c.address });
    }
  }
  for (const m of model.methods) {
    for (const [part, name] of [
      ['params', m.assumedParams ?? m.params.record],
      ['result', m.assumedResult ?? m.result.record],
    ] as const) {
      const t = record(name);
      if (!t) continue;
      const at = site.method(m, part);
      out.push({ page: `md/${at.page}.md`, anchor: at.anchor!, t, where: `${m.name} ${part}` });
    }
  }
  return out;
}

const cases: Array<[string, () => Promise<ApiModel>]> = [
  ['our spec', repoModel],
  ['a second API (ledger)', () => modelFromSpec(ledgerFile, root)],
];

describe.each(cases)('the docs of %s', (_name, load) => {
  it(
    'show the fields of every record a channel or a method uses in its section: ' +
      'name, type, required, and the constraints the records page gives',
    async () => {
      const model = await load();
      const site = new SiteMap(model);
      const files = emitDocs(model);
      const page = (path: string) => files.find((f) => f.path === path)?.content ?? '';
      const uses = usesOf(model, site);
      expect(uses.length).toBeGreaterThan(0);
      let constraints = 0;
      let namedTypes = 0;
      for (const { page: path, anchor, t, where } of uses) {
        const inline = tableAfter(page(path), anchor);
        expect(inline.head.slice(0, 3), where).toEqual(['Field', 'Type', 'Required']);
        expect(
          inline.rows.map((r) => r[0]),
          where,
        ).toEqual(t.fields!.map((f) => f.name));
        const record = site.typeRef(t.name)!;
        const full = tableAfter(page(`md/${record.page}.md`), record.anchor!);
        const fullAt = full.head.indexOf('Constraints');
        const inlineAt = inline.head.indexOf('Constraints');
        for (const [i, f] of t.fields!.entries()) {
          const row = inline.rows[i]!;
          expect(row[1], `${where} ${f.name}: type`).toBeTruthy();
          expect(row[2], `${where} ${f.name}: required`).toBe(f.required ? 'yes' : 'no');
          // The records page gives a field's own constraints; inline, a field of a named type shows the
          // type's (its pattern, its bounds) as well, since its section is on another page.
          const written = fullAt === -1 ? '' : full.rows[i]![fullAt]!;
          const shown = inlineAt === -1 ? '' : row[inlineAt]!;
          if (written) expect(shown, `${where} ${f.name}: constraints`).toBe(written);
          const named =
            f.refs.length === 1 && f.type.replace(/ \| null$/, '') === f.refs[0]
              ? model.schemas[f.refs[0]!]
              : undefined;
          if (!written && typeof named?.pattern === 'string')
            expect(shown, `${where} ${f.name}: the pattern of ${f.refs[0]}`).toContain(`pattern \`${named.pattern}\``);
          if (!written && named?.maximum !== undefined) {
            const max = String(model.exactIntegers?.[`#/components/schemas/${f.refs[0]}/maximum`] ?? named.maximum);
            // A 64-bit integer's full range is said by its name; any other bound is written as it is.
            const full = FULL_RANGES[max];
            expect(shown, `${where} ${f.name}: the bounds of ${f.refs[0]}`).toContain(
              full ? `\`${full}\`` : `maximum \`${max}\``,
            );
          }
          if (written) constraints++;
          if (!written && shown) namedTypes++;
        }
      }
      // Each spec has fields with constraints of their own where they are used (ours: the order-flow
      // params' nonce pattern, in records built with allOf; the ledger's: memo's pattern and length),
      // and fields of named types with constraints (Decimal, Int64; Amount, Sequence).
      expect(constraints).toBeGreaterThan(0);
      expect(namedTypes).toBeGreaterThan(0);
    },
  );

  it('show those tables in the HTML too, with their constraints', async () => {
    const model = await load();
    const html = emitDocs(model)
      .filter((f) => /^(channels|methods)(-[a-z0-9-]+)?\.html$/.test(f.path))
      .map((f) => f.content)
      .join('\n');
    expect(html).toContain('<thead><tr><th>Field<th>Type<th>Required');
    for (const { t } of usesOf(model, new SiteMap(model)))
      for (const f of t.fields!) expect(html).toContain(`<tr><td>${f.name}<td>`);
  });
});

/** The maximum of a 64-bit integer's full range, and the name the docs give that range. */
const FULL_RANGES: Record<string, string> = { '9223372036854775807': 'int64', '18446744073709551615': 'uint64' };

describe('the nonce of our order-flow params (a record built with allOf)', () => {
  it("shows its pattern in the method's own table, not only on the records page", async () => {
    const model = await repoModel();
    const site = new SiteMap(model);
    const files = emitDocs(model);
    // The order flow's signed methods (every signing method names its module; these two carry the order's nonce).
    const signed = model.methods.filter((m) => m.actionModule === 'trade' && m.orderFlow);
    expect(signed.length).toBe(2);
    for (const m of signed) {
      const at = site.method(m, 'params');
      const md = files.find((f) => f.path === `md/${at.page}.md`)!.content;
      const table = tableAfter(md, at.anchor!);
      const nonce = table.rows.find((r) => r[0] === 'nonce');
      expect(nonce, m.name).toBeDefined();
      expect(nonce![table.head.indexOf('Constraints')], m.name).toBe('pattern `^[0-9]{1,78}$` or minimum `0`');
    }
  });
});
