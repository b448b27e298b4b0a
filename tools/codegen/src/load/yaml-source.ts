import { LineCounter, parseDocument, isAlias, isMap, isNode, isScalar, isSeq, type Document } from 'yaml';
import { readFileSync, statSync } from 'node:fs';
import { SpecError, fromPointer, toPointer } from './spec-error';

type Path = ReadonlyArray<string | number>;

/**
 * A piece of a bundled spec (load/bundle.ts) read from another file: the content at `at` in the bundle
 * is the node at `from` in `source`, brought in by a $ref on line `siteLine` of the main file.
 */
export interface Mount {
  at: Path;
  source: YamlSource;
  display: string;
  from: Path;
  siteLine?: number;
}

/** Where a node of a bundled spec was written: its file, line and JSON pointer there. */
export interface Origin {
  file: string;
  line?: number;
  pointer: string;
  /** The line in the main file of the $ref that brought it in. */
  siteLine?: number;
}

/** The largest spec read (ours is about 100 kB). */
export const MAX_SPEC_BYTES = 16 * 1024 * 1024;

/** A YAML error in one line; the parser's stack overflow is a nesting too deep to read. */
function yamlMessage(message: string): string {
  if (/Maximum call stack size exceeded/.test(message))
    return 'nests too deeply to read (Maximum call stack size exceeded); see docs/generating.md, "Limits"';
  return `not valid YAML: ${message.split('\n')[0]}`;
}

/** The forms YAML 1.2's core schema reads as an integer (decimal, octal, hexadecimal): BigInt reads each. */
const INTEGER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;

/**
 * The integers beyond JavaScript's exact range, by JSON pointer, read from the parsed document's own
 * nodes: each keeps the text it was written as, so no second parse (as long as the first) is needed.
 * Null when the document holds what only that parse reads as the data has it (an alias, a tag, a key
 * that is not a plain string).
 */
function exactInNodes(doc: Document): Record<string, string> | null {
  const exact: Record<string, string> = {};
  const walk = (node: unknown, pointer: string): boolean => {
    if (node === null || node === undefined) return true;
    if (isAlias(node) || (isNode(node) && node.tag)) return false;
    if (isScalar(node)) {
      if (typeof node.value === 'number' && typeof node.source === 'string' && INTEGER.test(node.source)) {
        const value = BigInt(node.source);
        if (!Number.isSafeInteger(Number(value))) exact[pointer] = value.toString();
      }
      return true;
    }
    if (isSeq(node)) return node.items.every((item, i) => walk(item, `${pointer}/${i}`));
    if (!isMap(node)) return false;
    return node.items.every((pair) => {
      const key = isScalar(pair.key) && !pair.key.tag ? pair.key.value : undefined;
      if (typeof key !== 'string' || key === '<<') return false;
      return walk(pair.value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    });
  };
  return walk(doc.contents, '#') ? exact : null;
}

/** A spec file read as plain data, remembering where each node stands so problems can name a line. */
export class YamlSource {
  readonly data: unknown;
  /** The pieces read from other files, longest place first (none unless the spec is bundled). */
  private mounts: Mount[] = [];
  /** The version the document was written in, when it was converted to 3.x (load/convert-v2.ts). */
  private convertedFrom: string | null = null;
  private constructor(
    readonly file: string,
    readonly text: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
    data?: unknown,
  ) {
    this.data = data !== undefined ? data : doc.toJS({ maxAliasCount: 100 });
  }

  /** This file's source with other data: the spec bundled from it and the files it refers to. */
  bundled(data: unknown, mounts: Mount[]): YamlSource {
    const s = new YamlSource(this.file, this.text, this.doc, this.lines, data);
    s.mounts = [...mounts].sort((a, b) => b.at.length - a.at.length);
    return s;
  }

  /**
   * This source with its data converted to another AsyncAPI version. Only the places a conversion keeps
   * where they were (components' schemas and messages, info) still answer with a line of the file.
   */
  converted(data: unknown, from: string): YamlSource {
    const s = new YamlSource(this.file, this.text, this.doc, this.lines, data);
    s.convertedFrom = from;
    return s;
  }

  /** Whether the data holds content of other files. */
  get isBundled(): boolean {
    return this.mounts.length > 0;
  }

  /** Whether the data is other than the file's text says (bundled or converted): the parser gets it as JSON. */
  get isRewritten(): boolean {
    return this.isBundled || this.convertedFrom !== null;
  }

  /** Whether a path names the same node in the file as in the data (always, unless the document was converted). */
  private keptAt(path: Path): boolean {
    if (this.convertedFrom === null) return true;
    return path[0] === 'info' || (path[0] === 'components' && (path[1] === 'schemas' || path[1] === 'messages'));
  }

  /** The piece of another file this path lies in, and the path inside it; null when it is the main file's own. */
  private mountOf(path: Path): { mount: Mount; inner: Path } | null {
    for (const m of this.mounts) {
      if (m.at.length <= path.length && m.at.every((k, i) => String(k) === String(path[i])))
        return { mount: m, inner: [...m.from, ...path.slice(m.at.length)] };
    }
    return null;
  }

  /** Where the node at this path of a bundled spec was written, when in another file (else null). */
  where(path: Path): Origin | null {
    const found = this.mountOf(path);
    if (!found) return null;
    return {
      file: found.mount.display,
      line: found.mount.source.lineOf(found.inner),
      pointer: toPointer(found.inner),
      siteLine: found.mount.siteLine,
    };
  }

  static read(file: string, displayName = file): YamlSource {
    let text: string;
    try {
      // Only a regular file of bounded size: a FIFO, a device (/dev/zero) or a huge file would block or never end.
      const found = statSync(file);
      if (!found.isFile()) throw new Error(`${displayName} is not a regular file`);
      if (found.size > MAX_SPEC_BYTES)
        throw new Error(`${displayName} is ${found.size} bytes; a spec may be at most ${MAX_SPEC_BYTES}`);
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new SpecError([
        {
          file: displayName,
          pointer: '#',
          message: `cannot read the spec: ${(err as Error).message}`,
          severity: 'error',
        },
      ]);
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
          message: yamlMessage(e.message),
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
    // Only a spec with such a number looks; only one whose nodes cannot say pays for a second parse.
    if (/[0-9]{16}/.test(this.text)) {
      const fromNodes = exactInNodes(this.doc);
      if (fromNodes) Object.assign(exact, fromNodes);
      else walk(parseDocument(this.text, { intAsBigInt: true }).toJS({ maxAliasCount: 100 }), '#');
    }
    // A converted document keeps the numbers of the places the conversion leaves where they were.
    if (this.convertedFrom !== null)
      for (const pointer of Object.keys(exact)) if (!this.keptAt(fromPointer(pointer))) delete exact[pointer];
    // The pieces of other files, under their place in the bundle (the longest place wins: listed last).
    for (const m of [...this.mounts].reverse()) {
      const from = toPointer(m.from);
      for (const [pointer, value] of Object.entries(m.source.exactIntegers())) {
        if (pointer === from || pointer.startsWith(from === '#' ? '#/' : `${from}/`))
          exact[toPointer(m.at) + pointer.slice(from.length)] = value;
      }
    }
    return exact;
  }

  /**
   * 1-based line of the node at this path, or of its nearest ancestor that exists. In a bundled spec, a
   * node read from another file answers with the line of the $ref that brought it in (`where` names
   * its own file and line).
   */
  lineOf(path: ReadonlyArray<string | number>): number | undefined {
    const found = this.mountOf(path);
    if (found) return found.mount.siteLine;
    if (!this.keptAt(path)) return undefined;
    for (let n = path.length; n >= 0; n--) {
      const node = this.doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return this.lines.linePos(node.range[0]).line;
    }
    return undefined;
  }
}
