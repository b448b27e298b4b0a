/**
 * Which message a frame is, read as the generated client reads it (@exchange-api/types/wire-frame: the
 * constants a message fixes first, then its schema), with why an invalid one fails: the runner quotes it.
 */
import { classifyFrame } from '@exchange-api/types/wire-frame';
import type { SchemaSet } from '../generate/schema-set';
import type { MsgSpec } from './wire-shape';

/** The message a frame was found to be, whether it is valid, and why not. */
export interface Match {
  message: string;
  valid: boolean;
  why: string;
}

/** The first of `ids` the frame is (as classifyFrame tells), with why an invalid one fails; null when none. */
export function classify(spec: MsgSpec, schemas: SchemaSet, ids: readonly string[], frame: unknown): Match | null {
  const match = classifyFrame(ids, frame, {
    discriminators: (id) => spec.message(id).discriminators,
    valid: (id) => schemas.valid(spec.payload(id), frame),
  });
  if (match === null) return null;
  return { ...match, why: match.valid ? '' : schemas.why(spec.payload(match.message), frame) };
}

/** The message ids of operations (their own messages). */
export const messagesOf = (ops: readonly { messages: string[] }[]): string[] => [
  ...new Set(ops.flatMap((o) => o.messages)),
];
