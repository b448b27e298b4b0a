/**
 * A frame of a spec that speaks its own messages, read one way by the generated client and the runner:
 * the value at a JSON pointer of a payload (a correlation id, a discriminator), a copy of a payload with
 * one set there (the correlation value filled in), and which of some messages a frame is. It lives here,
 * the layer below both, because the runner may not import the client (it tests a server as a stranger
 * would) and neither may import the generator; it knows no API and imports nothing.
 */

/** A constant a message fixes: a `const` or single-value `enum`, or the values of a `oneOf`'s options. */
export type WireScalar = string | number | boolean | null;

/** Where a message fixes a value (a JSON pointer into its payload) and the values it may have there. */
export interface WireDiscriminator {
  readonly pointer: string;
  readonly values: ReadonlyArray<WireScalar>;
}

const segments = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** The value at `pointer` (RFC 6901) of `value`, or undefined where there is none. */
export function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const key of segments(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * `value` with `v` at `pointer`: objects and arrays along the way copied, objects made where there is
 * none (an array only gains an index it is given); the input is untouched.
 */
export function withValueAt(value: unknown, pointer: string, v: unknown): unknown {
  const [head, ...rest] = segments(pointer);
  if (head === undefined) return v;
  const tail = rest.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
  if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(head)) {
    const copy = [...(value as unknown[])];
    copy[Number(head)] = withValueAt(copy[Number(head)], tail, v);
    return copy;
  }
  const base =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...base, [head]: withValueAt(base[head], tail, v) };
}

/** Whether every constant of a message is at its place in the frame (false for a message without any). */
function claims(discriminators: ReadonlyArray<WireDiscriminator>, frame: unknown): boolean {
  return (
    discriminators.length > 0 &&
    discriminators.every((d) => d.values.some((v) => Object.is(valueAt(frame, d.pointer), v)))
  );
}

/** Whether the frame has another value where a message has a constant (absent is no other value). */
function excludes(discriminators: ReadonlyArray<WireDiscriminator>, frame: unknown): boolean {
  return discriminators.some((d) => {
    const value = valueAt(frame, d.pointer);
    return value !== undefined && !d.values.some((v) => Object.is(value, v));
  });
}

/** What a reader of frames knows of each message id: its constants, and whether the frame fits its schema. */
export interface FrameReader {
  discriminators(id: string): ReadonlyArray<WireDiscriminator>;
  valid(id: string): boolean;
}

/** The message a frame was found to be, and whether it is valid. */
export interface FrameMatch {
  message: string;
  valid: boolean;
}

/**
 * Which of `ids` the frame is: the first claimed one (every constant at its place) that is valid, else
 * the first claimed one, invalid; else the first valid one its constants do not exclude (a constant the
 * schema leaves optional may be absent); null when none. `read.valid` judges the frame being classified.
 */
export function classifyFrame(ids: ReadonlyArray<string>, frame: unknown, read: FrameReader): FrameMatch | null {
  const claimed = ids.filter((id) => claims(read.discriminators(id), frame));
  const fit = claimed.find((id) => read.valid(id));
  if (fit !== undefined) return { message: fit, valid: true };
  if (claimed.length > 0) return { message: claimed[0]!, valid: false };
  const open = ids.filter((id) => !excludes(read.discriminators(id), frame)).find((id) => read.valid(id));
  return open === undefined ? null : { message: open, valid: true };
}
