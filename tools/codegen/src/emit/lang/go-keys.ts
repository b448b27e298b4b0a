/**
 * The JSON keys a Go struct can carry. quicktype writes each property's key into a struct tag, a raw
 * string between backticks: a key holding a backtick would end the tag and make the rest code (a
 * `func init()` of the spec's that runs when the package loads). Go's encoding/json reads a tag name
 * only of letters, digits, spaces and !#$%&()*+-./:;<=>?@[]^_{|}~ (any other key is silently read
 * under the field's Go name instead), so such keys are refused before quicktype runs, each by its place.
 */
import type { ApiModel } from '../../model/types';
import { toPointer } from '../../load/spec-error';
import { DATA_KEYWORDS, SCHEMA_MAP } from '@exchange-api/types/json-schema-keywords';

const TAG_PUNCTUATION = '!#$%&()*+-./:;<=>?@[]^_{|}~ ';

/** Whether encoding/json reads `key` from a struct tag (its isValidTag). */
export const goTagKey = (key: string): boolean =>
  key !== '' && [...key].every((c) => TAG_PUNCTUATION.includes(c) || /^[\p{L}\p{Nd}]$/u.test(c));

/** Every property key (with its place in the spec) of the model's schemas that a Go struct tag cannot carry. */
export function untaggableKeys(model: ApiModel): Array<{ key: string; path: string[] }> {
  const found: Array<{ key: string; path: string[] }> = [];
  const walk = (node: unknown, path: string[]): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(k)) continue;
      if (!SCHEMA_MAP.has(k) || typeof v !== 'object' || v === null) {
        walk(v, [...path, k]);
        continue;
      }
      for (const [name, sub] of Object.entries(v)) {
        if (k === 'properties' && !goTagKey(name)) found.push({ key: name, path: [...path, k, name] });
        walk(sub, [...path, k, name]);
      }
    }
  };
  for (const [name, schema] of Object.entries(model.schemas))
    walk(schema, model.schemaOrigins?.[name] ?? ['components', 'schemas', name]);
  return found;
}

/**
 * Throws, in one line, naming each key a Go struct tag cannot carry by its place: a JSON pointer,
 * quoted as JSON (a key may hold line breaks).
 */
export function refuseUntaggableKeys(model: ApiModel): void {
  const found = untaggableKeys(model);
  if (found.length === 0) return;
  const places = found.map(({ path }) => JSON.stringify(toPointer(path)));
  throw new Error(
    `--lang go: ${found.length === 1 ? 'a property key' : `${found.length} property keys`}` +
      ` Go's encoding/json cannot read from a struct tag (a tag name takes letters, ` +
      `digits, spaces and !#$%&()*+-./:;<=>?@[]^_{|}~ only): ${places.join(', ')}` +
      `; rename ${found.length === 1 ? 'it' : 'them'} in the spec or leave go out of --lang`,
  );
}
