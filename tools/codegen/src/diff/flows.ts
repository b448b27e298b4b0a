/**
 * Which way each named schema's data flows: `input` when clients send it (method params and
 * the records assumed for them, `x-assumed-params`, at any depth), `output` when servers send it (method results and
 * channel payloads, at any depth).
 */
import type { ApiModel, JsonSchema } from '../model/types';
import { refsOf } from '../model/schema-tools';
import type { Flow } from './rules';

/** The flows of every named schema reachable from a method or a channel. */
export function flowsOf(model: ApiModel): Map<string, Set<Flow>> {
  const refs = new Map(model.types.map((t) => [t.name, t.refs]));
  const flows = new Map<string, Set<Flow>>();
  const mark = (schema: JsonSchema, flow: Flow) => {
    const queue = refsOf(schema);
    while (queue.length > 0) {
      const name = queue.shift()!;
      const set = flows.get(name) ?? new Set<Flow>();
      if (set.has(flow)) continue;
      set.add(flow);
      flows.set(name, set);
      queue.push(...(refs.get(name) ?? []));
    }
  };
  for (const m of model.methods) {
    mark(m.params.schema, 'input');
    mark(m.result.schema, 'output');
    // Where the document leaves params or result open, the assumed records are what clients send and servers answer.
    if (m.assumedParams) mark({ $ref: `#/definitions/${m.assumedParams}` }, 'input');
    if (m.assumedResult) mark({ $ref: `#/definitions/${m.assumedResult}` }, 'output');
  }
  for (const c of model.channels) mark(c.payload.schema, 'output');
  return flows;
}

/** The flows of a schema in either model (a schema that moved sides counts for both). */
export function flowsIn(name: string, ...maps: Array<Map<string, Set<Flow>>>): Flow[] {
  const all = new Set<Flow>();
  for (const m of maps) for (const f of m.get(name) ?? []) all.add(f);
  return (['input', 'output'] as const).filter((f) => all.has(f));
}
