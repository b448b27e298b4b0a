/**
 * Python models: quicktype's dataclasses, made to round-trip exactly and to pass `mypy --strict`.
 * quicktype drops keys it does not know and writes an optional key given as null as absent; every
 * record here keeps both (`json_extra`, `json_nulls`) and writes them back. A JSON integer read
 * where a number is expected stays an int (quicktype made it a float, written back as `5.0`). An
 * integer enumeration is an IntEnum, not a plain int.
 */
import type { ApiModel } from '../../model/types';
import { pyString } from '../escape';
import { patch } from '../patch';
import { integerEnums } from './python-enums';
import { KeepingPythonTarget } from './python-target';
import { quicktypeStringValue, runQuicktype, topLevelNames } from './quicktype-run';

export async function emitPython(model: ApiModel): Promise<string> {
  // No named schema (a spec whose messages carry no payload): quicktype has nothing to write, and the
  // table of converters still needs its typing names.
  if (Object.keys(model.schemas).length === 0)
    return withRegistry('from typing import Any, Callable, Dict, Tuple\n', new Map());
  const output = await runQuicktype(model, new KeepingPythonTarget(), {
    'python-version': '3.7',
    'nice-property-names': 'true',
  });
  const names = topLevelNames(output, /^def (\w+)_from_dict\(s: Any\)/gm, 'Python');
  return withRegistry(keepEveryKey(typedHelpers(integerEnums(output.text))), names);
}

/** A patch to quicktype's Python (patch.ts): `what` it is for, and `when` it applies only to some specs. */
const py = (what: string, when?: string | RegExp) => ({ emitter: 'python (quicktype)', what, when });

/** The helper functions and annotations quicktype leaves untyped, typed for `mypy --strict`. */
function typedHelpers(text: string): string {
  return typedResults(typedConverters(typedImports(text)));
}

/** The imports the typed helpers and the kept keys need. */
function typedImports(text: string): string {
  const out = patch(
    text,
    'from dataclasses import dataclass\n',
    'from dataclasses import dataclass, field as dataclass_field\n',
    py('import dataclasses.field for the kept keys', '@dataclass'),
  );
  return patch(
    out,
    /^from typing import (.*)$/m,
    (_, list: string) => {
      const helpers = ['Any', 'Callable', 'Dict', 'FrozenSet', 'Iterable', 'Tuple', 'cast'];
      return `from typing import ${[...new Set([...list.split(', '), ...helpers])].join(', ')}`;
    },
    py('import the typing names the typed helpers use'),
  );
}

/** quicktype's converter functions, typed; the identity converter named from_any. */
function typedConverters(text: string): string {
  const union = 'def from_union(';
  let out = patch(
    text,
    'def from_union(fs, x):',
    'def from_union(fs: Iterable[Callable[[Any], Any]], x: Any) -> Any:',
    py('type from_union', union),
  );
  out = patch(out, /^(\s+)except:$/m, '$1except Exception:', py("narrow from_union's bare except", union));
  out = patch(
    out,
    /(def from_float\(x: Any\) -> float:\n[^\n]*\n)\s+return float\(x\)/,
    '$1    return cast(float, x)',
    py('keep a JSON integer read as a float an int', 'def from_float('),
  );
  // quicktype annotates to_enum with the enum type, but it returns the value.
  out = patch(
    out,
    'def to_enum(c: Type[EnumT], x: Any) -> EnumT:',
    'def to_enum(c: Type[EnumT], x: Any) -> Any:',
    py("type to_enum's result as the value it returns", 'def to_enum('),
  );
  out = patch(
    out,
    'return cast(Any, x).to_dict()',
    'return cast(Dict[str, Any], cast(Any, x).to_dict())',
    py("type to_class's result", 'def to_class('),
  );
  out = patch(out, /lambda x: x\b(?!\.)/g, 'from_any', py('name the identity converter', 'lambda x: x'));
  return patch(
    out,
    '\n\ndef from_str(',
    '\n\ndef from_any(x: Any) -> Any:\n    return x\n\n\ndef from_str(',
    // Beside from_str, as always; and it must be found wherever from_any is used.
    py('define from_any', /def from_str\(|from_any/),
  );
}

/** What the top-level converters and to_dict return, typed. */
function typedResults(text: string): string {
  // A union's converter returns what from_union (untyped) returns: say which type that is.
  let out = patch(
    text,
    /^(def \w+_from_dict\(s: Any\) -> (.+):\n {4}return )(from_union\(.*\))$/gm,
    '$1cast($2, $3)',
    py("type a union's top-level converter", /_from_dict\(s: Any\).*\n\s+return from_union\(/),
  );
  out = patch(out, /-> dict:/g, '-> Dict[str, Any]:', py('type to_dict', '@dataclass'));
  return patch(out, /result: dict = \{\}/g, 'result: Dict[str, Any] = {}', py("type to_dict's result", '@dataclass'));
}

const RECORD = /@dataclass\nclass (\w+):\n([\s\S]*?)\n\n\n/g;

/** Every record keeps the keys it does not declare and the optional keys given as null. */
function keepEveryKey(text: string): string {
  const records = patch(text + '\n\n', RECORD, keepKeysOf, py('find the records (dataclasses)', '@dataclass'));
  return records.replace(/\n+$/, '\n');
}

/** One record (a dataclass block of quicktype's) with the two fields that keep every key, read and written. */
function keepKeysOf(block: string, name: string): string {
  // The JSON keys, read back from quicktype's literals and written again by pyString (escape.ts).
  const key = (m: RegExpMatchArray) => quicktypeStringValue(m[1]!);
  const known = [...block.matchAll(/obj\.get\("((?:[^"\\]|\\.)*)"\)/g)].map(key);
  const optional = [...block.matchAll(/if self\.\w+ is not None:\n\s+result\["((?:[^"\\]|\\.)*)"\]/g)].map(key);
  const keys = (list: string[]) => `(${list.map(pyString).join(', ')}${list.length === 1 ? ',' : ''})`;
  let out = patch(
    block,
    /\n\n {4}@staticmethod\n/,
    [
      '',
      '    # Keys the record does not declare, kept so that to_dict writes back what from_dict read.',
      '    json_extra: Dict[str, Any] = dataclass_field(default_factory=dict)',
      '    # Optional keys that were present with the value null (absent and null are both None above).',
      '    json_nulls: FrozenSet[str] = frozenset()',
      '',
      '    @staticmethod',
      '',
    ].join('\n'),
    py(`declare the kept keys of ${name}`),
  );
  out = patch(
    out,
    new RegExp(`return ${name}\\((.*)\\)\\n`),
    (_, args: string) =>
      [
        `return ${name}(${args}${args ? ',' : ''}`,
        `            {k: v for (k, v) in obj.items() if k not in ${keys(known)}},`,
        optional.length === 0
          ? '            frozenset())'
          : `            frozenset(k for k in ${keys(optional)} if k in obj and obj[k] is None))`,
        '',
      ].join('\n'),
    py(`keep the undeclared and the null keys ${name}.from_dict reads`),
  );
  return patch(
    out,
    /\n {8}return result\n/,
    [
      '',
      '        for key in self.json_nulls:',
      '            result.setdefault(key, None)',
      '        for key, value in self.json_extra.items():',
      '            result.setdefault(key, value)',
      '        return result',
      '',
    ].join('\n'),
    py(`write back the kept keys in ${name}.to_dict`),
  );
}

/** A table from each schema's name in the spec to its converters, for programs that pick a type by name. */
function withRegistry(text: string, names: Map<string, string>): string {
  const rows = [...names].map(([schema, fn]) => `    ${pyString(schema)}: (${fn}_from_dict, ${fn}_to_dict),`);
  return [
    text.trimEnd(),
    '',
    '',
    '# Each schema of the spec, by its name there: (from_dict, to_dict).',
    'CONVERTERS: Dict[str, Tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {',
    ...rows,
    '}',
    '',
  ].join('\n');
}
