/**
 * The docs show every example of every message with its name and summary, and every message's title,
 * where the message is shown; a search finds an example by its name. For our spec and a second API.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { emitDocs, modelFromSpec, searchEntries, SiteMap, type ApiModel } from '../src/index';
import { repoModel, root, specFile } from './docs-helpers';

const ledgerFile = new URL('./fixtures/ledger.asyncapi.yaml', import.meta.url).pathname;

type Message = {
  title?: string;
  summary?: string;
  examples?: Array<{ name?: string; summary?: string; payload?: unknown }>;
};

/** Every value inside a JSON value, itself included. */
function* nodes(value: unknown): Generator<unknown> {
  yield value;
  if (Array.isArray(value)) for (const v of value) yield* nodes(v);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) yield* nodes(v);
}

/** The JSON of every ```json block of Markdown pages (a block that is not only JSON is skipped). */
function jsonBlocks(markdown: string): unknown[] {
  return [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((m) => {
    try {
      return [JSON.parse(m[1]!)];
    } catch {
      return [];
    }
  });
}

const cases: Array<[string, string, () => Promise<ApiModel>]> = [
  ['our spec', specFile, repoModel],
  ['a second API (ledger)', ledgerFile, () => modelFromSpec(ledgerFile, root)],
];

describe.each(cases)('the docs of %s', (_name, file, model) => {
  // Numbers beyond 2^53 are compared as the model holds them (the payload printed from the same value).
  const messages = Object.values(
    (parse(readFileSync(file, 'utf8')).components?.messages ?? {}) as Record<string, Message>,
  );

  it('show every message title and summary where the message is', async () => {
    const files = emitDocs(await model());
    const api = files
      .filter((f) => /^md\/(channels|methods)(-[a-z0-9-]+)?\.md$/.test(f.path))
      .map((f) => f.content)
      .join('\n');
    const titled = messages.filter((m) => m.title);
    expect(titled.length).toBeGreaterThan(0);
    for (const m of titled) {
      expect(api, m.title).toContain(`**${m.title}**`);
      if (m.summary) expect(api, m.summary).toContain(m.summary.replace(/\s+/g, ' ').trim());
    }
  });

  it('show every example of every message: its name, its summary and its payload', async () => {
    const files = emitDocs(await model());
    const api = files
      .filter((f) => /^md\/(channels|methods)(-[a-z0-9-]+)?\.md$/.test(f.path))
      .map((f) => f.content)
      .join('\n');
    const shown = jsonBlocks(api).flatMap((b) => [...nodes(b)]);
    const examples = messages.flatMap((m) => m.examples ?? []).filter((e) => e.payload !== undefined);
    expect(examples.length).toBeGreaterThan(1);
    for (const e of examples) {
      if (e.name) expect(api, e.name).toContain(`\`${e.name}\``);
      if (e.summary) expect(api, e.summary).toContain(e.summary.replace(/\s+/g, ' ').trim());
      const payload = JSON.parse(JSON.stringify(e.payload));
      expect(
        shown.some((n) => isDeepStrictEqual(n, payload)),
        `payload of ${e.name ?? 'an example'} not on the page`,
      ).toBe(true);
    }
  });

  it('index every named example for the search', async () => {
    const m = await model();
    const labels = searchEntries(m, new SiteMap(m)).map((x) => x[1]);
    const names = messages
      .flatMap((msg) => msg.examples ?? [])
      .map((e) => e.name)
      .filter((n): n is string => Boolean(n));
    expect(names.length).toBeGreaterThan(0);
    // A method's examples are labelled `name (params)` or `name (result)`: one name may be both.
    for (const n of names)
      expect(
        labels.some((l) => l === n || l === `${n} (params)` || l === `${n} (result)`),
        n,
      ).toBe(true);
  });
});
