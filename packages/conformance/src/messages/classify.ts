/**
 * Which message a frame is, as the generated client and the mock tell: the constants a message fixes
 * (its discriminators) first, then its schema; a message whose constants are absent from the frame (or
 * that has none) is tried by its schema alone, after those.
 */
import { valueAt } from './pointer';
import type { SchemaSet } from '../generate/schema-set';
import type { MsgSpec, WireMessageShape } from './wire-shape';

/** The message a frame was found to be, whether it is valid, and why not. */
export interface Match {
  message: string;
  valid: boolean;
  why: string;
}

function claims(m: WireMessageShape, frame: unknown): boolean {
  return (
    m.discriminators.length > 0 &&
    m.discriminators.every((d) => d.values.some((v) => Object.is(valueAt(frame, d.pointer), v)))
  );
}

function excludes(m: WireMessageShape, frame: unknown): boolean {
  return m.discriminators.some((d) => {
    const value = valueAt(frame, d.pointer);
    return value !== undefined && !d.values.some((v) => Object.is(value, v));
  });
}

/**
 * The first of `ids` the frame is: a valid claimed one, else an invalid claimed one (with why), else a
 * valid one its constants do not exclude; null when none.
 */
export function classify(spec: MsgSpec, schemas: SchemaSet, ids: readonly string[], frame: unknown): Match | null {
  const valid = (id: string) => schemas.valid(spec.payload(id), frame);
  const claimed = ids.filter((id) => claims(spec.message(id), frame));
  const fit = claimed.find(valid);
  if (fit !== undefined) return { message: fit, valid: true, why: '' };
  if (claimed.length > 0)
    return { message: claimed[0]!, valid: false, why: schemas.why(spec.payload(claimed[0]!), frame) };
  const open = ids.filter((id) => !excludes(spec.message(id), frame)).find(valid);
  return open === undefined ? null : { message: open, valid: true, why: '' };
}

/** The message ids of operations (their own messages). */
export const messagesOf = (ops: readonly { messages: string[] }[]): string[] => [
  ...new Set(ops.flatMap((o) => o.messages)),
];
