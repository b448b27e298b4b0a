/**
 * The inputs of one send operation: the spec's examples of each of its messages (those their schema
 * accepts), then the generated ones (generate/cases.ts: valid edges, random valid ones by the seed,
 * invalid ones), each confirmed against the message's schema.
 */
import { withValueAt } from '@exchange-api/types/wire-frame';
import { casesOf, type InputCase } from '../generate/cases';
import { hash32 } from '../generate/run';
import type { MsgEnv } from './env';
import type { WireOperationShape } from './wire-shape';

/** A case and the message it was made from. */
export interface OpCase extends InputCase {
  message: string;
}

export function opCases(env: MsgEnv, op: WireOperationShape): OpCase[] {
  const out: OpCase[] = [];
  const seed = (env.o.seed ^ hash32(op.id)) >>> 0;
  for (const id of op.messages) {
    const m = env.spec.message(id);
    const schema = env.spec.payload(id);
    m.examples.forEach((example, i) => {
      if (env.schemas.valid(schema, example))
        out.push({
          expect: 'valid',
          why: `example #${i + 1} of ${m.key}`,
          cls: 'example',
          params: example,
          message: id,
        });
    });
    const ctx = { doc: env.spec.doc, hints: {}, seed };
    for (const c of casesOf(ctx, env.schemas, schema, env.o.randomCases)) out.push({ ...c, message: id });
  }
  // The correlation field is filled by the runner: cases that differ only there are one case.
  const seen = new Set<string>();
  return out.filter((c) => {
    const filled =
      c.expect === 'valid' && op.correlation && op.reply ? withValueAt(c.params, op.correlation, 0) : c.params;
    const key = `${c.expect} ${JSON.stringify(filled, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
