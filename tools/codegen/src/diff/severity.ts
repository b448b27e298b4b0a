/**
 * The words of the diff's verdicts: how bad a change is for one side (model/severity.ts), and which
 * way a schema's data flows (`input`: what clients send, `output`: what servers send).
 */
import type { Severity } from '../model/severity';

export { SEVERITIES, type Severity } from '../model/severity';

/** Which way a schema's data flows. */
export type Flow = 'input' | 'output';

/** A rule's verdict for one side, with the reason. */
export interface Verdict {
  client: Severity;
  server: Severity;
  why: string;
}

export const v = (client: Severity, server: Severity, why: string): Verdict => ({ client, server, why });

const RANK: Record<Severity, number> = { breaking: 2, dangerous: 1, safe: 0 };
export const worst = (a: Severity, b: Severity): Severity => (RANK[a] >= RANK[b] ? a : b);
export const atLeast = (s: Severity, bar: Severity): boolean => RANK[s] >= RANK[bar];
