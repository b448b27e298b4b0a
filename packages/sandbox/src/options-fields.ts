/**
 * One field of the sandbox's options read and checked (options.ts resolves them all): its type and
 * range, a bad one refused by its key (`wallets[0].address`) with what it must be and what it got.
 */
import { SandboxOptionsError } from './options-error';

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const DECIMAL = /^[0-9]+(\.[0-9]{1,12})?$/;

/** A plain JSON object (not null, not an array): what options, control bodies and requests must be. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** What a value is, for messages: `an array`, `null`, `a string`. */
export const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

export function onlyKeys(key: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(value)) {
    if (!allowed.includes(k))
      throw new SandboxOptionsError(`${key ? key + '.' : ''}${k}`, `unknown key (allowed: ${allowed.join(', ')})`);
  }
}

export function num(key: string, v: unknown, opts: { int?: boolean; min?: number; max?: number } = {}): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new SandboxOptionsError(key, `must be a finite number (got ${JSON.stringify(v)})`);
  if (opts.int && !Number.isInteger(v)) throw new SandboxOptionsError(key, `must be an integer (got ${v})`);
  if (opts.min !== undefined && v < opts.min)
    throw new SandboxOptionsError(key, `must be at least ${opts.min} (got ${v})`);
  if (opts.max !== undefined && v > opts.max)
    throw new SandboxOptionsError(key, `must be at most ${opts.max} (got ${v})`);
  return v;
}

export function str(key: string, v: unknown, pattern?: RegExp): string {
  if (typeof v !== 'string' || v.length === 0)
    throw new SandboxOptionsError(key, `must be a non-empty string (got ${JSON.stringify(v)})`);
  if (pattern && !pattern.test(v))
    throw new SandboxOptionsError(key, `must match ${pattern} (got ${JSON.stringify(v)})`);
  return v;
}

export function arr(key: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new SandboxOptionsError(key, `must be an array (got ${JSON.stringify(v)})`);
  return v;
}

export function bool(key: string, v: unknown): boolean {
  if (v !== undefined && typeof v !== 'boolean') throw new SandboxOptionsError(key, 'must be a boolean');
  return v ?? false;
}
