/**
 * The root tables of the model: the errors (x-errors), the limits (x-limits) and the rate-limit classes
 * (x-rate-limit-classes).
 */
import type { Limit, Obj, RateLimitClass } from '../load/spec-types';
import { withMarkers } from './markers';
import { obj, str } from './read-values';
import type { ErrorsModel, LimitModel, RateLimitClassModel } from './types';

export function buildErrors(e: Obj): ErrorsModel {
  return {
    reserved: (Array.isArray(e.reserved) ? e.reserved : []).map((r) => {
      const o = obj(r);
      return { from: Number(o.from), to: Number(o.to), purpose: str(o.purpose) };
    }),
    codes: (Array.isArray(e.codes) ? e.codes : []).map((raw) => {
      const c = obj(raw);
      const out: ErrorsModel['codes'][number] = {
        code: Number(c.code),
        message: str(c.message),
        condition: str(c.condition),
      };
      if (typeof c.name === 'string') out.name = c.name;
      if (typeof c.kind === 'string') out.kind = c.kind;
      if (typeof c.httpStatus === 'number') out.httpStatus = c.httpStatus;
      if (typeof c.data === 'string') out.data = c.data;
      if (typeof c.dataPattern === 'string') out.dataPattern = c.dataPattern;
      if (typeof c.textFramePrefix === 'string') out.textFramePrefix = c.textFramePrefix;
      return withMarkers(out, c);
    }),
  };
}

export function buildLimit(l: Limit): LimitModel {
  const out: LimitModel = {
    id: str(l.id),
    title: str(l.title, str(l.id)),
    kind: l.kind,
    scope: str(l.scope),
  };
  for (const k of ['tps', 'windowMs', 'points', 'max', 'refillPerSecond', 'capacity', 'maxBytes'] as const) {
    const n = l[k];
    if (typeof n === 'number') out[k] = n;
  }
  if (Array.isArray(l.instrumentTypes)) out.instrumentTypes = l.instrumentTypes.map(String);
  return withMarkers(out, l);
}

export function buildClass(c: RateLimitClass): RateLimitClassModel {
  return {
    name: str(c.name),
    default: c.default === true,
    appliesTo: str(c.appliesTo),
    budget: str(c.budget),
    methodCount: typeof c.methodCount === 'number' ? c.methodCount : null,
  };
}
