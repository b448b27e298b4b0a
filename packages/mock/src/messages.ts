/**
 * The mock's messages: one validator per message (ajv, compiled once), which message a client's frame
 * is (constants first, then the validator), and a valid message to send: one of the spec's examples that
 * its schema accepts, else one drawn from the schema (seeded), never one that fails its validator.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { MockMessage, MockModel } from './mock-model';
import { sample } from './sample';

/** Tries at drawing a valid value before a message is given up as one the mock cannot make. */
const DRAWS = 50;

export function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A copy of `value` with `v` at a one-or-more-level pointer (objects made where missing). */
export function withValueAt(value: unknown, pointer: string, v: unknown): unknown {
  const [head, ...rest] = pointer.slice(1).split('/');
  if (head === undefined || pointer === '') return v;
  const key = head.replace(/~1/g, '/').replace(/~0/g, '~');
  const base = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const tail = rest.length > 0 ? '/' + rest.join('/') : '';
  return { ...base, [key]: withValueAt((base as Record<string, unknown>)[key], tail, v) };
}

export class MessageKit {
  private readonly byId = new Map<string, MockMessage>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly model: MockModel) {
    const wire = model.wire!;
    const ajv = new Ajv({ strict: false, allErrors: true, multipleOfPrecision: 9 });
    addFormats(ajv);
    const definitions: Record<string, unknown> = { ...model.schemas };
    wire.messages.forEach((m, i) => (definitions[`__message${i}`] = m.payload.schema));
    ajv.addSchema({ $id: 'api', definitions }, 'api');
    wire.messages.forEach((m, i) => {
      this.byId.set(m.id, m);
      this.validators.set(m.id, ajv.getSchema(`api#/definitions/__message${i}`)!);
    });
  }

  message(id: string): MockMessage {
    return this.byId.get(id)!;
  }

  valid(id: string, value: unknown): boolean {
    return this.validators.get(id)!(value) === true;
  }

  /** The errors of the last failed check of `id`, as one line. */
  why(id: string): string {
    const errors = this.validators.get(id)!.errors ?? [];
    return errors.map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
  }

  /** The first of `ids` a frame is: claimed by its constants and valid, else valid where its constants are absent. */
  classify(ids: string[], frame: unknown): string | null {
    const claims = (m: MockMessage) =>
      m.discriminators.length > 0 &&
      m.discriminators.every((d) => d.values.some((v) => Object.is(valueAt(frame, d.pointer), v)));
    const excludes = (m: MockMessage) =>
      m.discriminators.some((d) => {
        const value = valueAt(frame, d.pointer);
        return value !== undefined && !d.values.some((v) => Object.is(value, v));
      });
    const claimed = ids.filter((id) => claims(this.message(id)));
    return (
      claimed.find((id) => this.valid(id, frame)) ??
      ids.filter((id) => !excludes(this.message(id))).find((id) => this.valid(id, frame)) ??
      null
    );
  }

  /**
   * A valid payload of the message, with `fixed` (pointer → value, e.g. the correlation value) set:
   * a valid example when one stays valid with them, else drawn; null when none can be made.
   */
  make(id: string, rnd: () => number, fixed: Record<string, unknown> = {}): unknown {
    const fill = (v: unknown) => Object.entries(fixed).reduce((acc, [p, x]) => withValueAt(acc, p, x), v);
    const examples = this.message(id)
      .examples.map(fill)
      .filter((e) => this.valid(id, e));
    if (examples.length > 0) return examples[Math.floor(rnd() * examples.length)];
    for (let i = 0; i < DRAWS; i++) {
      const drawn = fill(sample(this.message(id).payload.schema, this.model.schemas, rnd));
      if (this.valid(id, drawn)) return drawn;
    }
    return null;
  }
}
