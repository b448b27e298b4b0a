/**
 * The names the generated code declares must stay apart. Schemas `foo_bar` and `FooBar` are both
 * `FooBar` in TypeScript, channels `user-events` and `user_events` both declare `UserEventsAddress`,
 * a schema `Methods` meets the SDK's own method map in its index (`export *` of both), operations
 * `get-x` and `get_x` both export the validator `params_get_x`: the SDK would not compile, or
 * (json-schema-to-typescript numbering the second `FooBar1`) one channel would be typed with the
 * other's payload without a word. Such a spec is refused, naming both places, rather than one of them
 * suffixed: a suffix goes to whichever comes second, so reordering or adding a schema would silently
 * move a public name from one type to another, and every place that names a type (validators,
 * README, the diff report) would have to learn the table instead of the one rule tsName.
 */
import type { LoadedSpec } from '../load/load-spec';
import { SpecError, toPointer, type SpecProblem } from '../load/spec-error';
import { tsName } from './naming';
import type { ApiModel } from './types';

/**
 * The types an SDK's modules other than types.gen.ts export whatever the spec (its index re-exports
 * every module): channels.gen, methods.gen, tables.gen, guards.gen and client.gen. A test
 * (unique-names.test.ts) keeps this list equal to what they export.
 */
export const SDK_TYPE_NAMES = [
  'ApiChannels',
  'ApiClient',
  'ApiCore',
  'CallParams',
  'CallResult',
  'ChannelAddress',
  'ChannelAddresses',
  'ChannelEntry',
  'ChannelIdOf',
  'ChannelPayloads',
  'ChannelTemplates',
  'ErrorEntry',
  'HttpMethodName',
  'LimitEntry',
  'MethodEntry',
  'MethodName',
  'Methods',
  'OrderFlowMethodName',
  'ParamsOf',
  'PayloadOf',
  'ResultOf',
  'SdkClientOptions',
  'WsMethodName',
];

/** One named thing of the spec: what it is, its spelling, where it is and the names the code gives it. */
interface Named {
  what: string;
  spelling: string;
  path: string[];
  names: string[];
}

/** The exported validator names' identifier part (validators.ts). */
const ident = (s: string) => s.replace(/[^A-Za-z0-9_$]/g, '_');

/** Two namespaces: the types the SDK's index exports, and the validators' exports by operation. */
function namedThings(model: ApiModel): Named[][] {
  const schemas = Object.keys(model.schemas).map((spelling) => ({
    what: 'schema',
    spelling,
    path: model.schemaOrigins?.[spelling] ?? ['components', 'schemas', spelling],
    names: [tsName(spelling)],
  }));
  const channels = model.channels.map((c) => ({
    what: 'channel',
    spelling: c.id,
    path: ['channels', c.id],
    names: [`${tsName(c.id)}Address`, `${tsName(c.id)}ChannelPayload`],
  }));
  const operations = model.methods.map((m) => ({
    what: 'operation',
    spelling: m.id,
    path: ['operations', m.id],
    names: [`params_${ident(m.id)}`],
  }));
  return [[...channels, ...schemas], operations];
}

/** A problem for each name two things of the spec share, or one the SDK declares itself. */
export function nameClashes(model: ApiModel): Array<{ message: string; path: string[] }> {
  const found: Array<{ message: string; path: string[] }> = [];
  for (const group of namedThings(model)) {
    const first = new Map<string, Named>();
    for (const n of group) {
      const quoted = `${n.what} ${JSON.stringify(n.spelling)}`;
      if (n.names.includes('')) {
        found.push({ message: `${quoted} has no letter or digit to name a type by`, path: n.path });
        continue;
      }
      const own = n.names.find((name) => SDK_TYPE_NAMES.includes(name));
      const shared = n.names.find((name) => first.has(name));
      const other = shared === undefined ? undefined : first.get(shared);
      if (own)
        found.push({
          message: `${quoted} would declare ${own}, a name the generated SDK declares itself; rename the ${n.what}`,
          path: n.path,
        });
      else if (other)
        found.push({
          message:
            `${quoted} and ${other.what} ${JSON.stringify(other.spelling)} ` +
            `(at ${JSON.stringify(toPointer(other.path))}) both become ${shared} in the generated code; ` +
            'rename one of them',
          path: n.path,
        });
      else for (const x of n.names) first.set(x, n);
    }
  }
  return found;
}

/** Throws a SpecError naming both places of every shared name (see the module comment). */
export function refuseNameClashes(spec: LoadedSpec, model: ApiModel): void {
  const problems: SpecProblem[] = nameClashes(model).map(({ message, path }) => ({
    file: spec.file,
    pointer: toPointer(path),
    line: spec.source.lineOf(path),
    message,
    severity: 'error',
  }));
  if (problems.length > 0) throw new SpecError(problems);
}
