/**
 * Which message a frame is: the constants a message fixes (its discriminators) are read first, then
 * its validator decides; a message whose constants are absent from the frame (or that has none) is
 * tried by its validator alone, after those.
 */
import { valueAt } from './pointer';
import type { WireMessageEntry, WireTable, WireValidators } from './wire-table';

/** The message a frame was found to be, and whether it is valid. */
export interface Match {
  message: string;
  valid: boolean;
}

/** Whether every constant of the message is at its place in the frame (false for a message without any). */
export function claims(entry: WireMessageEntry, frame: unknown): boolean {
  return (
    entry.discriminators.length > 0 &&
    entry.discriminators.every((d) => d.values.some((v) => Object.is(valueAt(frame, d.pointer), v)))
  );
}

/** Whether the frame has another value where the message has a constant (absent is no other value). */
function excludes(entry: WireMessageEntry, frame: unknown): boolean {
  return entry.discriminators.some((d) => {
    const value = valueAt(frame, d.pointer);
    return value !== undefined && !d.values.some((v) => Object.is(value, v));
  });
}

/**
 * The first of `ids` the frame is: a valid claimed one, else an invalid claimed one, else a valid one
 * its constants do not exclude (a constant the schema leaves optional may be absent); null when none.
 */
export function classify(
  ids: ReadonlyArray<string>,
  frame: unknown,
  table: WireTable,
  v: WireValidators,
): Match | null {
  const valid = (id: string) => v.messages[id]?.(frame) ?? true;
  const claimed = ids.filter((id) => claims(table.messages[id]!, frame));
  const fit = claimed.find(valid);
  if (fit !== undefined) return { message: fit, valid: true };
  if (claimed.length > 0) return { message: claimed[0]!, valid: false };
  const open = ids.filter((id) => !excludes(table.messages[id]!, frame)).find(valid);
  return open === undefined ? null : { message: open, valid: true };
}
