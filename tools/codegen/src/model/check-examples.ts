/**
 * Every example in the spec must validate against its schema: a message's examples against its payload,
 * a schema's examples against the schema. Generation stops on the first spec whose examples lie.
 */
import { Ajv } from 'ajv';
import type { LoadedSpec } from '../load/load-spec';
import { SpecError, toPointer, type SpecProblem } from '../load/spec-error';
import { cleanSchema } from './schema-tools';
import { channelMatcher } from './channel-template';
import type { ApiModel } from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkExamples(spec: LoadedSpec, model: ApiModel): void {
  const definitions: Obj = { ...model.schemas };
  const cases: Array<{ key: string; path: Array<string | number>; value: unknown }> = [];
  const components = isObj(spec.data.components) ? spec.data.components : {};
  const messages = isObj(components.messages) ? components.messages : {};
  for (const [name, raw] of Object.entries(messages)) {
    if (!isObj(raw) || !Array.isArray(raw.examples) || raw.payload === undefined) continue;
    const key = `__message_${name}`;
    definitions[key] = cleanSchema(raw.payload);
    raw.examples.forEach((ex, i) => {
      if (isObj(ex) && 'payload' in ex) cases.push({ key, path: ['components', 'messages', name, 'examples', i, 'payload'], value: ex.payload });
    });
  }
  const schemas = isObj(components.schemas) ? components.schemas : {};
  for (const [name, raw] of Object.entries(schemas)) {
    if (!isObj(raw) || !Array.isArray(raw.examples)) continue;
    raw.examples.forEach((value, i) => cases.push({ key: name, path: ['components', 'schemas', name, 'examples', i], value }));
  }
  if (cases.length === 0) return;

  const ajv = new Ajv({ strict: false, allowUnionTypes: true, allErrors: true });
  ajv.addSchema({ $id: 'examples', definitions });
  const problems: SpecProblem[] = [];
  for (const c of cases) {
    const validate = ajv.getSchema(`examples#/definitions/${c.key}`);
    if (!validate || validate(c.value)) continue;
    for (const e of validate.errors ?? []) {
      const where = e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath || '/';
      problems.push({
        file: spec.file,
        pointer: toPointer(c.path),
        line: spec.source.lineOf(c.path),
        message: `example is not valid: ${where} ${e.message ?? e.keyword}`,
        severity: 'error',
      });
    }
  }
  // An example's x-address must be an address of its own channel.
  // Through the one matcher every package uses: the address must resolve to this channel, not another.
  const match = channelMatcher(model.channels);
  for (const c of model.channels) {
    c.exampleAddresses.forEach((address, i) => {
      if (address !== null && match(address)?.channel !== c) {
        problems.push({ file: spec.file, pointer: `#/channels/${c.id}`, line: spec.source.lineOf(['channels', c.id]), message: `example ${i + 1}: x-address "${address}" is not an address of ${c.address}`, severity: 'error' });
      }
    });
  }
  if (problems.length > 0) throw new SpecError(problems);
}
