/**
 * Go models: quicktype's structs and unions in one package `models`, every record made exact
 * (go-records.ts), unsigned 64-bit integers as uint64, and a RoundTrip function by schema name.
 */
import type { ApiModel, JsonSchema } from '../../model/types';
import { refName } from '../../model/schema-tools';
import { goString } from '../escape';
import { exactRecords, goPatch } from './go-records';
import { refuseUntaggableKeys } from './go-keys';
import { DeclaringGoTarget } from './go-target';
import { patch } from '../patch';
import { quicktypeStringValue, runQuicktype, topLevelNames } from './quicktype-run';

export const GO_PACKAGE = 'models';

export async function emitGo(model: ApiModel): Promise<string> {
  refuseUntaggableKeys(model);
  const output = await runQuicktype(model, new DeclaringGoTarget(), { package: GO_PACKAGE, 'omit-empty': 'true' });
  const names = topLevelNames(output, /^func Unmarshal(\w+)\(data \[\]byte\)/gm, 'Go');
  // Not a patch (patch.ts): trailing blanks are dropped wherever there are any, and there may be none.
  const text = withImports(shortHeader(output.text.replace(/[ \t]+$/gm, '')));
  return withRoundTrip(exactRecords(unsigned(text, model, names)), names);
}

/** quicktype's usage comment repeats three lines per type; its first line (Go's generated-code marker) is enough. */
function shortHeader(text: string): string {
  const at = text.indexOf(`\npackage ${GO_PACKAGE}\n`);
  return text.slice(0, text.indexOf('\n') + 1) + text.slice(at);
}

/** One import block: what quicktype imported plus what the exact records need. */
function withImports(text: string): string {
  const found = [...text.matchAll(/^import "([^"]+)"\n/gm)].map((m) => m[1]!);
  const all = [...new Set([...found, 'bytes', 'encoding/json', 'fmt', 'sort'])].sort();
  const block = ['import (', ...all.map((p) => `\t"${p}"`), ')', ''].join('\n');
  const single = patch(text, /^import "[^"]+"\n\n?/gm, '', goPatch('gather its one-line imports', /^import /m));
  return patch(
    single,
    `package ${GO_PACKAGE}\n\n`,
    `package ${GO_PACKAGE}\n\n${block}\n`,
    goPatch('put the import block after the package clause'),
  );
}

/** Whether a named schema is an integer that may exceed int64 (minimum 0, maximum about 2^64). */
function isUnsigned64(schema: JsonSchema | undefined): boolean {
  return (
    schema?.type === 'integer' &&
    typeof schema.minimum === 'number' &&
    schema.minimum >= 0 &&
    typeof schema.maximum === 'number' &&
    schema.maximum >= 1.8e19
  );
}

/** Whether a property holds such an integer: itself, through a named schema, a nullable union or as its items. */
function holdsUnsigned64(schema: unknown, model: ApiModel): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as JsonSchema;
  const named = refName(s);
  if (named) return isUnsigned64(model.schemas[named]);
  if (isUnsigned64(s)) return true;
  if (s.type === 'array') return holdsUnsigned64(s.items, model);
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  return alternatives?.some((a) => holdsUnsigned64(a, model)) ?? false;
}

/** quicktype writes every integer as int64; an unsigned 64-bit one becomes uint64, in its record's fields and its own type. */
function unsigned(text: string, model: ApiModel, names: Map<string, string>): string {
  let out = text;
  for (const name of Object.keys(model.schemas).filter((n) => isUnsigned64(model.schemas[n])))
    out = patch(
      out,
      new RegExp(`^type ${names.get(name)} int64$`, 'm'),
      `type ${names.get(name)} uint64`,
      goPatch(`make ${names.get(name)} a uint64`),
    );
  for (const [record, schema] of Object.entries(model.schemas)) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const keys = Object.keys(properties).filter((k) => holdsUnsigned64(properties[k], model));
    if (keys.length === 0) continue;
    out = patch(
      out,
      new RegExp(`^type ${names.get(record)} struct \\{\\n[\\s\\S]*?\\n\\}$`, 'm'),
      (body) =>
        // Only the fields that hold such an integer themselves: one of a named type was made uint64 above.
        body.replace(
          /^(\t\w+\s+\S*?)\bint64\b(.*`json:"([^",]*)[^`]*`)$/gm,
          (line, head: string, tail: string, key: string) =>
            keys.includes(quicktypeStringValue(key)) ? `${head}uint64${tail}` : line,
        ),
      goPatch(`find the struct ${names.get(record)}, to make its unsigned 64-bit fields uint64`),
    );
  }
  return out;
}

/** RoundTrip decodes data as the named schema's type and encodes it again: one entry per schema. */
function withRoundTrip(text: string, names: Map<string, string>): string {
  const rows = [...names].map(
    ([schema, go]) =>
      `\t${goString(schema)}: func(data []byte) ([]byte, error) { return roundTrip(Unmarshal${go}, data) },`,
  );
  return [
    text.trimEnd(),
    '',
    "// RoundTrip decodes data as the type of the spec's schema of that name and encodes it again.",
    'func RoundTrip(schema string, data []byte) ([]byte, error) {',
    '\tconvert, ok := roundTrips[schema]',
    '\tif !ok {',
    '\t\treturn nil, fmt.Errorf("no schema named %q", schema)',
    '\t}',
    '\treturn convert(data)',
    '}',
    '',
    'var roundTrips = map[string]func([]byte) ([]byte, error){',
    ...rows,
    '}',
    '',
    'func roundTrip[T any](unmarshal func([]byte) (T, error), data []byte) ([]byte, error) {',
    '\tvalue, err := unmarshal(data)',
    '\tif err != nil {',
    '\t\treturn nil, err',
    '\t}',
    '\treturn json.Marshal(&value)',
    '}',
    '',
  ].join('\n');
}
