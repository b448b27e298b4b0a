/**
 * The client's core knows no API: its modules (src/, less the entries and src/generated) import
 * nothing of this interface's generated code. .dependency-cruiser.cjs forbids the paths; this test
 * checks the names a core module takes from @exchange-api/types (whose index also re-exports the
 * generated tables and types), which a path rule cannot see.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SubscriptionNotification } from '@exchange-api/types';

const src = join(import.meta.dirname, '..', 'src');
const typesSrc = join(import.meta.dirname, '..', '..', 'types', 'src');
/** The modules that may speak this interface: the entries, and the generated surface (a folder). */
const ENTRIES = new Set(['index.ts', 'browser.ts', 'exports.ts', 'exchange.ts']);

/** The names `text` imports from `module` (type-only or not). */
function importedNames(text: string, module: string): string[] {
  const names: string[] = [];
  const from = new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*'${module}'`, 'g');
  for (const m of text.matchAll(from))
    for (const part of m[1]!.split(','))
      if (part.trim())
        names.push(
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
        );
  return names;
}

/** The names the generated modules of @exchange-api/types declare. */
function generatedNames(): Set<string> {
  const dir = join(typesSrc, 'generated');
  const names = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.gen.ts')))
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^export (?:const|type|interface|function) (\w+)/gm))
      names.add(m[1]!);
  return names;
}

describe("the client's core", () => {
  const core = readdirSync(src).filter((f) => f.endsWith('.ts') && !ENTRIES.has(f));

  it('imports none of the generated tables and types of @exchange-api/types', () => {
    const generated = generatedNames();
    expect(generated.has('methodTable') && generated.has('Methods')).toBe(true);
    const taken = core.flatMap((f) =>
      importedNames(readFileSync(join(src, f), 'utf8'), '@exchange-api/types').map((n) => `${f}: ${n}`),
    );
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.filter((t) => generated.has(t.split(': ')[1]!))).toEqual([]);
  });

  it('imports neither the generated surface nor an entry', () => {
    const reached = core.filter((f) =>
      /from '\.\/(generated\/|index'|browser'|exports'|exchange')/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(reached).toEqual([]);
  });

  it("takes the notification frame this interface's spec assumes", () => {
    // src/session.ts speaks `subscription`; a spec that changes it changes this type, and fails here.
    expectTypeOf<SubscriptionNotification['method']>().toEqualTypeOf<'subscription'>();
    expect(readFileSync(join(src, 'session.ts'), 'utf8')).toContain("const NOTIFICATION = 'subscription';");
  });
});
