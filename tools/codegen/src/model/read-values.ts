/** Readers of the values of a spec that no check fixes: a text trimmed (or a fallback), an object (or none). */
import { isObj, type Obj } from '../load/spec-types';

/** A string trimmed, or `fallback` for anything else. */
export const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v.trim() : fallback);

/** An object as it is, or an empty one for anything else. */
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
