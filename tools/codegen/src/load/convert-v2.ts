/**
 * AsyncAPI 1.x and 2.x documents made 3.0.0 in process by @asyncapi/converter, before anything else
 * reads them: everything downstream (conventions, parser, model, diff, docs, mock, runner) knows 3.x only.
 * The converter reports what it drops through console.warn; those reports are kept as notes here
 * instead, so that they reach the user as lines of ours (and never bare on the console of a library user).
 */
import { convert, type AsyncAPIConvertVersion, type AsyncAPIDocument } from '@asyncapi/converter';
import { isObj } from './spec-types';

/** The version every converted document gets: the one our conventions pin (spec/README.md). */
export const CONVERTED_TO = '3.0.0';

/** What a conversion did: the version read, the version written, and what the converter said it dropped. */
export interface Conversion {
  from: string;
  to: string;
  notes: string[];
}

/** The document's `asyncapi` when it is a 1.x or 2.x version the converter takes, else null. */
export function convertibleVersion(data: unknown): string | null {
  const found = isObj(data) && typeof data.asyncapi === 'string' ? data.asyncapi.trim() : null;
  return found !== null && /^[12]\.\d+\.\d+(?:-[\w.]+)?$/.test(found) ? found : null;
}

/**
 * The document as AsyncAPI 3.0.0, or why the converter refused it (one line). Its warnings (a parameter
 * schema whose type it drops, a `$ref` it cannot follow there) become the conversion's notes.
 */
export function convertToV3(data: unknown): { data: unknown; conversion: Conversion } | { error: string } {
  const from = convertibleVersion(data);
  if (from === null) return { error: 'not an AsyncAPI 1.x or 2.x document' };
  const notes: string[] = [];
  const warn = console.warn;
  // The converter is synchronous: nothing else runs while its reports are redirected.
  console.warn = (...args: unknown[]) => notes.push(oneLine(args.map(String).join(' ')));
  try {
    // The converter works on (and partly mutates) its input: it gets a copy.
    const copy = structuredClone(data) as AsyncAPIDocument;
    const converted = convert(copy, CONVERTED_TO as AsyncAPIConvertVersion);
    return { data: converted, conversion: { from, to: CONVERTED_TO, notes } };
  } catch (err) {
    return { error: `@asyncapi/converter could not convert it: ${(err as Error).message}` };
  } finally {
    console.warn = warn;
  }
}

/** A report of the converter (a sentence, then a list of `- ...` lines) as one line. */
function oneLine(text: string): string {
  const [first = '', ...rest] = text.split('\n').map((l) => l.trim().replace(/^- /, ''));
  const list = rest.filter((l) => l !== '');
  return list.length > 0 ? `${first.replace(/[.:]$/, '')}: ${list.join('; ')}` : first;
}

/** The line that says a document was converted, and one per note of the converter. */
export function conversionLines(file: string, c: Conversion): string[] {
  return [
    `converted AsyncAPI ${c.from} to ${c.to} (${file}); places in it are named in the converted document`,
    ...c.notes.map((n) => `  the converter noted: ${n}`),
  ];
}
