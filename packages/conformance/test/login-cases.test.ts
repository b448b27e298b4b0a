/** The proof put around a generated login case, and the other spellings of an order's decimal. */
import { describe, expect, it } from 'vitest';
import { aroundProof, touchedMember } from '../src/generate/login-cases';
import { decimalForms } from '../src/generate/sequence-order-inputs';
import type { InputCase } from '../src/generate/cases';

const proof = { wallet: '0xW', timestamp: '1700000000000', signature: '0xS' };
const valid = (why: string, params: unknown): InputCase => ({ expect: 'valid', why, params });

describe('a login case around a fresh proof', () => {
  it('names the member a case set on purpose', () => {
    expect(touchedMember(valid('/timestamp = "0"', {}))).toBe('timestamp');
    expect(touchedMember(valid('/wallet: wrong type 12345', {}))).toBe('wallet');
    expect(touchedMember(valid('missing /signature', {}))).toBe('signature');
    expect(touchedMember(valid('missing required /wallet', {}))).toBe('wallet');
    expect(touchedMember(valid('random #1 of seed 3', {}))).toBeNull();
  });

  it('keeps what the case set and puts the proof everywhere else', () => {
    const typed = aroundProof(valid('/timestamp: wrong type true', { wallet: 'x', timestamp: true }), proof);
    expect(typed).toEqual({ params: { wallet: '0xW', timestamp: true, signature: '0xS' }, intact: false });
    const missing = aroundProof(valid('missing /signature', { wallet: 'x', timestamp: '1' }), proof);
    expect(missing).toEqual({ params: { wallet: '0xW', timestamp: '1700000000000' }, intact: false });
    const extra = aroundProof(
      valid('/x_extra_member: a member the open object allows', { x_extra_member: 'x' }),
      proof,
    );
    expect(extra).toEqual({ params: { x_extra_member: 'x', ...proof }, intact: true });
    const numeric = aroundProof(valid('the proof with its timestamp as a JSON number', { wallet: 'x' }), proof);
    expect(numeric).toEqual({ params: { ...proof, timestamp: 1700000000000 }, intact: true });
  });

  it('leaves params that are not a members object, and {} (no member at all), as they are', () => {
    expect(aroundProof(valid('params null', null), proof)).toEqual({ params: null, intact: false });
    expect(aroundProof(valid('params {}', {}), proof)).toEqual({ params: {}, intact: false });
  });
});

describe('the other spellings of a decimal', () => {
  it('a trailing zero, a leading zero and a JSON number', () => {
    expect(decimalForms('1.5')).toEqual(['1.50', '01.5', 1.5]);
    expect(decimalForms('1000')).toEqual(['1000.0', '01000', 1000]);
  });
});
