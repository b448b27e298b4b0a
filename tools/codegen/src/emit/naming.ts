/** `orderbook` → `Orderbook`, `instrument_name` → `InstrumentName`. */
export function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** The TypeScript name json-schema-to-typescript gives a titled schema. */
export function tsName(title: string): string {
  const p = pascal(title);
  return /^[0-9]/.test(p) ? '_' + p : p;
}

export const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
