/**
 * The docs write constraints as a reader writes them (patterns plain, 64-bit bounds exact as the spec's
 * text has them, a 64-bit integer's full range by its name) and the error table whole (name, kind, HTTP
 * status), searchable by name: for our spec and for a second API.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { emitDocs, modelFromSpec, searchEntries, SiteMap, type ApiModel } from '../src/index';
import { repoModel, root, specFile } from './docs-helpers';

const ledgerFile = new URL('./fixtures/ledger.asyncapi.yaml', import.meta.url).pathname;

/** Every `pattern` value of a spec, as written. */
function patternsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => patternsOf(n, out));
  else if (typeof node === 'object' && node !== null)
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') out.push(v);
      else if (k !== 'x-errors') patternsOf(v, out);
    }
  return out;
}

/** Every integer of a spec's text beyond JavaScript's exact range, as written. */
const bigIntegers = (text: string) => [
  ...new Set(
    [...text.matchAll(/(?<![\w.])-?[0-9]{16,}(?![\w.])/g)]
      .map((m) => m[0])
      .filter((n) => !Number.isSafeInteger(Number(n))),
  ),
];

const cases: Array<[string, string, () => Promise<ApiModel>]> = [
  ['our spec', specFile, repoModel],
  ['a second API (ledger)', ledgerFile, () => modelFromSpec(ledgerFile, root)],
];

describe.each(cases)('the docs of %s', (_name, file, model) => {
  const text = readFileSync(file, 'utf8');

  it('write every pattern of the spec plain, in HTML and Markdown', async () => {
    const files = emitDocs(await model());
    const md = files
      .filter((f) => f.path.startsWith('md/'))
      .map((f) => f.content)
      .join('\n');
    // The HTML offers line breaks inside code (<wbr>); a reader sees the pattern whole.
    const html = files
      .filter((f) => f.path.endsWith('.html'))
      .map((f) => f.content.replace(/<wbr>/g, ''))
      .join('\n');
    const patterns = patternsOf(parse(text));
    expect(patterns.length).toBeGreaterThan(0);
    for (const p of patterns) {
      expect(md, p).toContain(`pattern \`${p}\``);
      expect(html, p).toContain(
        `pattern <code>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`,
      );
    }
  });

  it('write every 64-bit bound exactly as the spec does, never the rounded double', async () => {
    const files = emitDocs(await model());
    const all = files.map((f) => f.content).join('\n');
    const big = bigIntegers(text);
    expect(big.length).toBeGreaterThan(0);
    // A 64-bit integer's full range is said by its name (`int64`, `uint64`); every other bound exactly.
    const fullRange = new Set(['-9223372036854775808', '9223372036854775807', '18446744073709551615']);
    for (const n of big) {
      if (fullRange.has(n)) expect(all, n).toMatch(/`u?int64`/);
      else expect(all, n).toContain(n);
      expect(all).not.toContain(String(Number(n)).replace('e+', ''));
    }
    expect(all).not.toMatch(/9223372036854776000|18446744073709552000/);
  });

  it('list every error with its stable name, kind and HTTP status, and find it by name in the search', async () => {
    const m = await model();
    const files = emitDocs(m);
    const md = files.find((f) => f.path === 'md/errors.md')!.content;
    expect(md).toContain('| Code | Name | Message | Kind | HTTP |');
    const names = m.errors.codes.map((e) => e.name).filter((n): n is string => n !== undefined);
    expect(names.length).toBeGreaterThan(0);
    for (const e of m.errors.codes.filter((x) => x.name))
      expect(md).toMatch(new RegExp(`\`${e.code}\` \\| \`${e.name}\` \\| [^|]+ \\| ${e.kind} \\| ${e.httpStatus} \\|`));
    const labels = searchEntries(m, new SiteMap(m))
      .filter((x) => x[1] !== String(Number(x[1])))
      .map((x) => x[1]);
    for (const n of names) expect(labels).toContain(n);
  });
});
