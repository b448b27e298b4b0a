import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The key every data file of this tool carries: a file without it is someone else's and is never overwritten. */
export const WRITTEN_BY = 'tools/evidence extract';

/** JSON with object keys sorted at every level (arrays keep their order), two-space indented, one final newline. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

/** Write a data file of ours; refuse a file at that path that this tool did not write. Returns whether it changed. */
export function writeEvidence(file: string, data: object): boolean {
  const text = sortedJson({ writtenBy: WRITTEN_BY, ...data });
  if (existsSync(file)) {
    const old = readFileSync(file, 'utf8');
    if (!old.includes(`"writtenBy": "${WRITTEN_BY}"`)) {
      throw new Error(`${file}: exists and was not written by ${WRITTEN_BY}; not overwritten`);
    }
    if (old === text) return false;
  }
  writeFileSync(file, text);
  return true;
}
