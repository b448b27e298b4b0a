import type { CcxtEvidence } from './shape';

/** ccxt's implicit API name: `get_all_currencies` → `GetAllCurrencies` (as in `publicPostGetAllCurrencies`). */
const camel = (key: string) => key.replace(/(^|_)([a-z0-9])/g, (_m, _u, ch: string) => ch.toUpperCase());

/**
 * Reads ccxt's derive class as facts: `api` is its `describe().api` (access → verb → method → cost),
 * `rest` the text of js/src/derive.js, `pro` of js/src/pro/derive.js.
 */
export function readCcxt(
  version: string,
  api: Record<string, Record<string, Record<string, unknown>>>,
  rest: string,
  pro: string,
): CcxtEvidence {
  const listed: Record<string, string[]> = {};
  const byImplicitName = new Map<string, string>();
  for (const [access, verbs] of Object.entries(api)) {
    for (const [verb, names] of Object.entries(verbs)) {
      for (const key of Object.keys(names)) {
        const method = `${access}/${key}`;
        (listed[method] ??= []).push(verb.toUpperCase());
        byImplicitName.set(`${access}${camel(verb)}${camel(key)}`, method);
      }
    }
  }
  const called = new Set<string>();
  for (const m of rest.matchAll(/this\.((?:public|private)(?:Get|Post)[A-Za-z0-9]+)\(/g)) {
    const method = byImplicitName.get(m[1]!);
    if (!method) throw new Error(`ccxt derive.js calls ${m[1]}, which its describe().api does not list`);
    called.add(method);
  }
  const ws = new Set([...pro.matchAll(/'method': '([A-Za-z_/]+)'/g)].map((m) => m[1]!));
  // A topic is string literals joined with values: `'orderbook.' + market['id'] + '.10.' + limit`.
  const channels = new Set<string>();
  for (const m of pro.matchAll(/const topic = ([^;]+);/g)) {
    const parts = m[1]!.split(/\s*\+\s*/);
    if (parts.length === 1 && !/^'/.test(parts[0]!)) continue; // read back from a message, not built
    channels.add(parts.map((p) => (/^'.*'$/.test(p) ? p.slice(1, -1) : '{}')).join(''));
  }
  for (const v of Object.values(listed)) v.sort();
  return {
    client: { name: 'ccxt', version, files: ['js/src/derive.js', 'js/src/pro/derive.js'] },
    listed,
    called: { rest: [...called].sort(), ws: [...ws].sort() },
    channels: [...channels].sort(),
  };
}
