import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { readFileSync, statSync } from 'node:fs';
import { SpecError } from './spec-error';

/** The largest spec read (ours is about 100 kB). */
export const MAX_SPEC_BYTES = 16 * 1024 * 1024;

/** A spec file read as plain data, remembering where each node stands so problems can name a line. */
export class YamlSource {
  readonly data: unknown;
  private constructor(
    readonly file: string,
    readonly text: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {
    this.data = doc.toJS({ maxAliasCount: 100 });
  }

  static read(file: string, displayName = file): YamlSource {
    let text: string;
    try {
      // Only a regular file of bounded size: a FIFO, a device (/dev/zero) or a huge file would block or never end.
      const found = statSync(file);
      if (!found.isFile()) throw new Error(`${displayName} is not a regular file`);
      if (found.size > MAX_SPEC_BYTES) throw new Error(`${displayName} is ${found.size} bytes; a spec may be at most ${MAX_SPEC_BYTES}`);
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new SpecError([{ file: displayName, pointer: '#', message: `cannot read the spec: ${(err as Error).message}`, severity: 'error' }]);
    }
    return YamlSource.fromText(text, displayName);
  }

  static fromText(text: string, file: string): YamlSource {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, intAsBigInt: false });
    if (doc.errors.length > 0) {
      throw new SpecError(
        doc.errors.map((e) => ({
          file,
          pointer: '#',
          line: e.linePos?.[0]?.line,
          message: `not valid YAML: ${e.message.split('\n')[0]}`,
          severity: 'error' as const,
        })),
      );
    }
    return new YamlSource(file, text, doc, lines);
  }

  /**
   * Every integer of the spec beyond JavaScript's exact range (an int64 or uint64 bound), by JSON
   * pointer, as written: `data` holds them as doubles that lost their last digits.
   */
  exactIntegers(): Record<string, string> {
    const exact: Record<string, string> = {};
    const walk = (node: unknown, pointer: string): void => {
      if (typeof node === 'bigint') {
        if (!Number.isSafeInteger(Number(node))) exact[pointer] = node.toString();
      } else if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${pointer}/${i}`));
      else if (typeof node === 'object' && node !== null)
        for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    // Only a spec with such a number pays for the second parse.
    if (/[0-9]{16}/.test(this.text)) walk(parseDocument(this.text, { intAsBigInt: true }).toJS({ maxAliasCount: 100 }), '#');
    return exact;
  }

  /** 1-based line of the node at this path, or of its nearest ancestor that exists. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined {
    for (let n = path.length; n >= 0; n--) {
      const node = this.doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return this.lines.linePos(node.range[0]).line;
    }
    return undefined;
  }
}
