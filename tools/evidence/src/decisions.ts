import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Disagreement, Part } from './agreement';

/**
 * A written decision on where the spec differs from a client: what was decided, on what evidence, whose
 * bug. It covers either a place in one method or channel (`target`, `part`, `path`) or a field of a
 * spec record wherever the record is used (`record`, `field`, `*` for every field), optionally only
 * some kinds of difference (`kinds`).
 */
export interface Decision {
  target?: string;
  part?: Part;
  /** The field path it covers (and everything under it); `*` for the whole part. */
  path?: string;
  record?: string;
  field?: string;
  kinds?: Array<Disagreement['kind']>;
  decision: string;
  evidence: string;
  /** The client whose type is wrong on the wire, or `none` where the spec chooses between readings. */
  clientBug: string;
}

const PARTS = new Set(['params', 'result', 'data']);
const KINDS = new Set(['missing', 'extra', 'required', 'types', 'enum', 'shape']);

/** Reads the decisions file; an entry without what it needs is refused, naming the entry and the key. */
export function readDecisions(file: string): Decision[] {
  const doc = parse(readFileSync(file, 'utf8')) as { decisions?: unknown };
  if (!doc || !Array.isArray(doc.decisions)) throw new Error(`${file}: a top-level 'decisions' list is needed`);
  return doc.decisions.map((d: unknown, i: number) => {
    const e = (d ?? {}) as Record<string, unknown>;
    const where = `${file}: decisions[${i}]`;
    const need = (key: string) => {
      if (typeof e[key] !== 'string' || (e[key] as string).trim() === '')
        throw new Error(`${where} needs '${key}' (text)`);
    };
    ['decision', 'evidence', 'clientBug'].forEach(need);
    if (e.record !== undefined) ['record', 'field'].forEach(need);
    else {
      ['target', 'part', 'path'].forEach(need);
      if (!PARTS.has(e.part as string)) throw new Error(`${where}.part must be params, result or data`);
    }
    if (e.kinds !== undefined && !(Array.isArray(e.kinds) && e.kinds.every((k) => KINDS.has(k as string)))) {
      throw new Error(`${where}.kinds must list some of ${[...KINDS].join(', ')}`);
    }
    return e as unknown as Decision;
  });
}

const under = (path: string, at: string) =>
  at === '*' || path === at || [`${at}.`, `${at}[`, `${at}{`].some((p) => path.startsWith(p));

/** The decision that covers a disagreement, if one does. */
export function decisionFor(decisions: Decision[], target: string, part: Part, d: Disagreement): Decision | undefined {
  return decisions.find((x) => {
    if (x.kinds && !x.kinds.includes(d.kind)) return false;
    if (x.record !== undefined) return d.record === x.record && (x.field === '*' || d.field === x.field);
    return x.target === target && x.part === part && under(d.path, x.path!);
  });
}

/** Where a decision applies, in a few words. */
export const decisionName = (d: Decision) =>
  d.record !== undefined ? `record ${d.record}.${d.field}` : `${d.target} ${d.part} ${d.path}`;
