/**
 * The one reading of a frame of a spec that speaks its own messages (src/wire-frame.ts), which the
 * message client and the runner share: pointers read and written (escapes, arrays, the input left
 * untouched), and which message a frame is (constants first, then validity; an absent constant is no
 * other value).
 */
import { describe, expect, it } from 'vitest';
import { classifyFrame, valueAt, withValueAt, type WireDiscriminator } from '../src/wire-frame';

describe('valueAt and withValueAt', () => {
  it('reads a member, an escaped one and an index; undefined where there is none', () => {
    const v = { reqid: 7, 'a/b': { '~x': 1 }, list: [{ id: 'z' }] };
    expect(valueAt(v, '/reqid')).toBe(7);
    expect(valueAt(v, '/a~1b/~0x')).toBe(1);
    expect(valueAt(v, '/list/0/id')).toBe('z');
    expect(valueAt(v, '')).toBe(v);
    expect([valueAt(v, '/missing'), valueAt(v, '/reqid/deeper'), valueAt(null, '/x')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // An inherited member is no member of the payload.
    expect(valueAt({}, '/toString')).toBeUndefined();
  });

  it('sets a value in a copy, making objects where there are none, and leaves the input as it was', () => {
    const input = { event: 'ping', nested: { keep: true } };
    expect(withValueAt(input, '/reqid', 3)).toEqual({ event: 'ping', nested: { keep: true }, reqid: 3 });
    expect(withValueAt(input, '/nested/a~1b', 'x')).toEqual({ event: 'ping', nested: { keep: true, 'a/b': 'x' } });
    expect(withValueAt(undefined, '/a/b', 1)).toEqual({ a: { b: 1 } });
    expect(withValueAt(input, '', 5)).toBe(5);
    expect(input).toEqual({ event: 'ping', nested: { keep: true } });
  });

  it('keeps an array an array where the pointer gives an index; a member name replaces it by an object', () => {
    const input = [{ reqid: 0 }, 'b'];
    expect(withValueAt(input, '/0/reqid', 9)).toEqual([{ reqid: 9 }, 'b']);
    expect(input).toEqual([{ reqid: 0 }, 'b']);
    expect(withValueAt(['a'], '/reqid', 1)).toEqual({ reqid: 1 });
  });
});

describe('classifyFrame', () => {
  const discriminators: Record<string, WireDiscriminator[]> = {
    ping: [{ pointer: '/event', values: ['ping'] }],
    pong: [{ pointer: '/event', values: ['pong'] }],
    status: [{ pointer: '/status', values: ['ok', 'error'] }],
    loose: [],
  };
  /** What each message's schema says here: every frame fits, but `loose` needs a string `text`. */
  const read = (frame: Record<string, unknown>) => ({
    discriminators: (id: string) => discriminators[id]!,
    valid: (id: string) => id !== 'loose' || typeof frame.text === 'string',
  });
  const classify = (ids: string[], frame: Record<string, unknown>) => classifyFrame(ids, frame, read(frame));

  it('a frame with every constant of a message is that message, before any other', () => {
    expect(classify(['loose', 'pong', 'ping'], { event: 'ping', text: 'x' })).toEqual({ message: 'ping', valid: true });
    expect(classify(['status'], { status: 'error' })).toEqual({ message: 'status', valid: true });
  });

  it('a claimed message that fails its schema is that message, invalid', () => {
    const frame = { event: 'ping' };
    const strict = { discriminators: (id: string) => discriminators[id]!, valid: () => false };
    expect(classifyFrame(['ping', 'pong'], frame, strict)).toEqual({ message: 'ping', valid: false });
  });

  it('without its constants, a message its constants do not exclude is tried by its schema alone', () => {
    expect(classify(['ping', 'loose'], { text: 'hi' })).toEqual({ message: 'ping', valid: true });
    expect(classify(['ping', 'loose'], { event: 'other', text: 'hi' })).toEqual({ message: 'loose', valid: true });
    expect(classify(['ping', 'pong'], { event: 'other' })).toBeNull();
    expect(classify([], { event: 'ping' })).toBeNull();
  });
});
