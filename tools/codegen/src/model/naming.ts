/**
 * The TypeScript names the emitters give the model's types and payloads. Here, below the emitters and
 * the diff, because the diff names what a change renames or removes in the generated code.
 */
import { isObj } from '../load/spec-types';
import { messageVariants } from './schema-tools';

/** `orderbook` → `Orderbook`, `instrument_name` → `InstrumentName`. */
export function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * The TypeScript name of a schema, channel or parameter: `title` in PascalCase, a letter after a digit
 * upper-cased and a leading digit prefixed with `_`. json-schema-to-typescript reads such a name as it
 * is (types.ts gives it as the title), so the name the emitters refer to is the name it declares.
 */
export function tsName(title: string): string {
  const p = pascal(title).replace(/([0-9])([a-z])/g, (_m, d: string, l: string) => d + l.toUpperCase());
  return /^[0-9]/.test(p) ? '_' + p : p;
}

type PayloadShape = { schema: unknown; array: boolean; record: string | null };
const refTo = (s: unknown): string | null => {
  if (!isObj(s) || typeof s.$ref !== 'string') return null;
  const m = /^#\/(?:definitions|components\/schemas)\/(.+)$/.exec(s.$ref);
  return m ? m[1]! : null;
};

/**
 * The TypeScript type of a payload, in terms of the named types (`T.<Name>`): a named record, an array
 * of one, or (a channel with several messages, an `anyOf`) the union of its messages' types; otherwise
 * `unknown`.
 */
export function payloadTypeOf(p: PayloadShape, prefix = 'T.'): string {
  const one = (schema: unknown, array: boolean, record: string | null): string | null => {
    const named = refTo(schema);
    if (named) return `${prefix}${tsName(named)}`;
    if (array && record) return `${prefix}${tsName(record)}[]`;
    if (isObj(schema) && schema.type === 'array') {
      const element = refTo(schema.items);
      if (element) return `${prefix}${tsName(element)}[]`;
    }
    return null;
  };
  const direct = one(p.schema, p.array, p.record);
  if (direct) return direct;
  const options = messageVariants(p.schema);
  if (options && options.length > 0) {
    const each = options.map((s) => one(s, false, null));
    if (each.every((t): t is string => t !== null)) return [...new Set(each)].join(' | ');
  }
  return 'unknown';
}
