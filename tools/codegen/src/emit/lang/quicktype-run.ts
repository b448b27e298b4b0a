/**
 * Runs quicktype-core over the model's named schemas: one top-level per named schema, all read from
 * one document holding every schema under `definitions`, so shared records are declared once.
 */
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype, type Options } from 'quicktype-core';
import type { ApiModel } from '../../model/types';
import { schemaForWriter } from '../escape';
import { markIntegerEnums } from './int-enums';

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
  const text = JSON.stringify({ definitions: markIntegerEnums(model, forQuicktype(model.schemas)) });
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
 * The schemas as quicktype reads them. Without `format`: quicktype reads date-time and date as
 * datetime (Python) or time.Time (Go) and uuid as UUID, which neither round-trips the text exactly
 * ("…Z" comes back "…+00:00") nor, in Go, reads a date at all; the models keep such values as the
 * strings they are, and the validators check their formats. Without quicktype's own `qt-` keywords,
 * which rename fields (a keyword no schema vocabulary defines is ignored, as the notes say). Each
 * description safe for the comments and docstrings quicktype writes it into (escape.ts). Integer
 * enumerations are marked (int-enums.ts), after this.
 */
function forQuicktype(schemas: ApiModel['schemas']): Record<string, unknown> {
  const drop = (k: string, v: unknown) => (k === 'format' && typeof v === 'string') || k.startsWith('qt-');
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, schemaForWriter(s, drop)]));
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
      `quicktype's ${lang} output has ${found.length} top-level converters for ` +
        `${output.names.length} schemas; its output format changed`,
    );
  }
  return new Map(output.names.map((name, i) => [name, found[i]!]));
}

const SHORT_ESCAPES: Record<string, string> = { n: '\n', t: '\t' };

/**
 * The text a string literal of quicktype's (Python or Go) stands for, from what is between its
 * quotes: quicktype writes \\, \", \n, \t, \uXXXX and \UXXXXXXXX, and everything else as it is.
 */
export function quicktypeStringValue(inside: string): string {
  return inside.replace(/\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))/g, (_m, u4?: string, u8?: string, c?: string) =>
    u4
      ? String.fromCharCode(parseInt(u4, 16))
      : u8
        ? String.fromCodePoint(parseInt(u8, 16))
        : (SHORT_ESCAPES[c!] ?? c!),
  );
}
