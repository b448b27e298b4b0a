/** One benchmark line in the shared form: `bench <name>: <value> (target <op> <value>) ok|MISS`. */
export interface BenchResult {
  name: string;
  value: number;
  unit?: string;
  op: '<=' | '>=' | '<';
  target: number;
}

export function formatResult(r: BenchResult): string {
  const ok = r.op === '<=' ? r.value <= r.target : r.op === '<' ? r.value < r.target : r.value >= r.target;
  const unit = r.unit ?? '';
  const v = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(3);
  return `bench ${r.name}: ${v}${unit} (target ${r.op} ${r.target}${unit}) ${ok ? 'ok' : 'MISS'}`;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
