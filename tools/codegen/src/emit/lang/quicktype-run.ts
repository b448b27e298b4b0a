/**
 * Runs quicktype-core over the model's named schemas: one top-level per named schema, all read from
 * one document holding every schema under `definitions`, so shared records are declared once.
 */
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype, type Options } from 'quicktype-core';
import type { ApiModel } from '../../model/types';

/** quicktype's output for one language, and the model's schema names in the order of its top-levels. */
export interface QuicktypeOutput {
  text: string;
  /** Model schema names, in the order quicktype writes their top-level converters. */
  names: string[];
}

// The document's name inside quicktype; it never reaches the disk or the network (the schema is given).
const DOCUMENT = 'model.json';

export async function runQuicktype(
  model: ApiModel,
  lang: NonNullable<Options['lang']>,
  rendererOptions: Record<string, string>,
): Promise<QuicktypeOutput> {
  const names = Object.keys(model.schemas);
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  const text = JSON.stringify({ definitions: withoutFormats(model.schemas) });
  for (const [i, name] of names.entries()) {
    // The document is given once; every other top-level points into it.
    await input.addSource({ name, uris: [`${DOCUMENT}#/definitions/${name}`], schema: i === 0 ? text : undefined });
  }
  const inputData = new InputData();
  inputData.addInput(input);
  const result = await quicktype({ inputData, lang, rendererOptions });
  return { text: result.lines.join('\n') + '\n', names };
}

/**
 * The schemas without `format`: quicktype reads date-time and date as datetime (Python) or time.Time
 * (Go) and uuid as UUID, which neither round-trips the text exactly ("…Z" comes back "…+00:00") nor,
 * in Go, reads a date at all. The models keep such values as the strings they are; the validators
 * check their formats.
 */
function withoutFormats(schemas: ApiModel['schemas']): unknown {
  const walk = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((v) => walk(v));
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node as Record<string, unknown>)
        .filter(([k, v]) => names || !(k === 'format' && typeof v === 'string'))
        .map(([k, v]) => [
          k,
          names
            ? walk(v)
            : ['examples', 'default', 'enum', 'const'].includes(k)
              ? v
              : walk(v, ['properties', 'patternProperties', 'definitions'].includes(k)),
        ]),
    );
  };
  return walk(schemas, true);
}

/**
 * Pair each model name with the name quicktype gave its top-level converter (found by `pattern`,
 * in order). quicktype writes one per top-level in the order they were added; anything else means
 * its output changed shape, which must stop generation rather than pair the wrong names.
 */
export function topLevelNames(output: QuicktypeOutput, pattern: RegExp, lang: string): Map<string, string> {
  const found = [...output.text.matchAll(pattern)].map((m) => m[1]!);
  if (found.length !== output.names.length) {
    throw new Error(
      `quicktype's ${lang} output has ${found.length} top-level converters for ${output.names.length} schemas; its output format changed`,
    );
  }
  return new Map(output.names.map((name, i) => [name, found[i]!]));
}
