/**
 * The AsyncAPI parser's verdicts, kept by content. The parser is a function of the text it is given and
 * of its own version (when the text names no other file), and it takes seconds of CPU on a spec of ours
 * (ajv compiling the AsyncAPI schemas, Spectral's rules) where reading a verdict back takes a
 * millisecond: generating, documenting and diffing the same spec again, as a watch loop, a CI job or a
 * test suite does, parses it once. Kept in this process, and on disk beside the parser, in
 * `node_modules/.cache/exchange-api/parser/` (the folder other tools keep their caches in), one file per
 * verdict named by its key; only files of that form are ever removed from it, oldest first past
 * MAX_FILES. A folder that cannot be written is no error: the verdict is then kept in memory only.
 * `EXCHANGE_API_PARSE_CACHE=off` turns it off.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { ParserDiagnostic } from './parse-bounded';

/** Verdicts kept on disk at most; the oldest go first. */
const MAX_FILES = 200;
/** Verdicts kept in memory at most. */
const MAX_MEMORY = 32;
/** The form of a verdict file; a new form makes the old files misses, never misreads. */
const FORMAT = 'exchange-api parser verdict 1';
const FILE = /^[0-9a-f]{64}\.json$/;

const memory = new Map<string, ParserDiagnostic[]>();
/**
 * The parses under way, by key: two loads of one text at once (`diff --base` of an unchanged spec loads
 * both sides together) wait for one parse instead of running two, each paying its seconds.
 */
const underWay = new Map<string, Promise<ParserDiagnostic[]>>();

/** Where the parser lives, and its version: the verdicts are its own. */
function parserPackage(): { dir: string; version: string } | null {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('@asyncapi/parser/package.json');
    return { dir: dirname(manifest), version: (require(manifest) as { version: string }).version };
  } catch {
    return null;
  }
}

/** The cache folder beside the parser (in the node_modules that holds it), or null when it has none. */
function folder(parserDir: string): string | null {
  const at = parserDir.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return null;
  return join(parserDir.slice(0, at), 'node_modules', '.cache', 'exchange-api', 'parser');
}

/** Whether the text may name another file or address: a `$ref` to anything but `#…`. Such a verdict is never kept. */
function refersOutside(text: string): boolean {
  return /\$ref["']?\s*:(?!\s*["']?#)/.test(text);
}

/** The verdict cache for one text, or null when none may be kept for it. */
export interface VerdictSlot {
  /** The verdict's file, or null when it is kept in memory only. */
  readonly file: string | null;
  read(): ParserDiagnostic[] | null;
  write(diagnostics: ParserDiagnostic[]): void;
  /**
   * The kept verdict, else the one a parse of the same text under way will give, else `parse`'s (then
   * kept). A failed parse is shared by those who waited for it, and never kept.
   */
  settle(parse: () => Promise<ParserDiagnostic[]>): Promise<ParserDiagnostic[]>;
}

/**
 * The slot of `text`, or null when the cache is off or the text refers outside itself; kept in `dir`
 * (default: beside the parser). The file's name is not part of the key: a text that names no other file
 * parses the same wherever it lies, so `diff --base` (the spec's version at a ref, copied to a temporary
 * folder) and a copy the types package ships read the verdict of the spec they repeat (12 s of CPU each).
 */
export function verdictSlot(text: string, dir?: string): VerdictSlot | null {
  if (process.env.EXCHANGE_API_PARSE_CACHE === 'off' || refersOutside(text)) return null;
  const parser = parserPackage();
  if (!parser) return null;
  const key = createHash('sha256').update(`${FORMAT}\n${parser.version}\n`).update(text).digest('hex');
  const at = dir ?? folder(parser.dir);
  const file = at && join(at, `${key}.json`);
  const slot: VerdictSlot = {
    file,
    read: () => memory.get(key) ?? (file ? fromDisk(file, key) : null),
    write: (diagnostics) => {
      remember(key, diagnostics);
      if (at && file) toDisk(at, file, diagnostics);
    },
    settle: (parse) => {
      const kept = slot.read();
      if (kept) return Promise.resolve(kept);
      const pending = underWay.get(key);
      if (pending) return pending;
      const verdict = parse().then(
        (diagnostics) => {
          underWay.delete(key);
          slot.write(diagnostics);
          return diagnostics;
        },
        (err: unknown) => {
          underWay.delete(key);
          throw err;
        },
      );
      underWay.set(key, verdict);
      return verdict;
    },
  };
  return slot;
}

function remember(key: string, diagnostics: ParserDiagnostic[]): void {
  memory.delete(key);
  memory.set(key, diagnostics);
  if (memory.size > MAX_MEMORY) memory.delete(memory.keys().next().value!);
}

/** A verdict file's diagnostics; a missing, partial or foreign file is a miss. */
function fromDisk(file: string, key: string): ParserDiagnostic[] | null {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; diagnostics?: unknown };
    if (kept.format !== FORMAT || !Array.isArray(kept.diagnostics) || !kept.diagnostics.every(wellFormed)) return null;
    const diagnostics = kept.diagnostics as ParserDiagnostic[];
    remember(key, diagnostics);
    return diagnostics;
  } catch {
    return null;
  }
}

/**
 * Whether a kept diagnostic has the parser's form: a planted one with a message that is not text (an
 * object, a number) would reach the messages as `[object Object]` or break them, so the file is a miss.
 * Its text is the parser's or anyone's who can write the folder: the command line prints it escaped.
 */
function wellFormed(d: unknown): boolean {
  if (typeof d !== 'object' || d === null) return false;
  const { severity, path, message, code, range } = d as Record<string, unknown>;
  const line = (range as { start?: { line?: unknown } } | undefined)?.start?.line;
  return (
    (range === undefined || typeof line === 'number') &&
    typeof severity === 'number' &&
    Array.isArray(path) &&
    path.every((k) => typeof k === 'string' || typeof k === 'number') &&
    typeof message === 'string' &&
    (typeof code === 'string' || typeof code === 'number')
  );
}

/** Write a verdict whole (a temporary file renamed), then drop the oldest past MAX_FILES; failures are ignored. */
function toDisk(dir: string, file: string, diagnostics: ParserDiagnostic[]): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ format: FORMAT, diagnostics }));
    renameSync(temp, file);
    const ours = readdirSync(dir).filter((f) => FILE.test(f));
    if (ours.length <= MAX_FILES) return;
    const byAge = ours.map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of byAge.slice(0, ours.length - MAX_FILES)) rmSync(join(dir, f), { force: true });
  } catch {
    // A read-only or vanished folder: the verdict stays in memory only.
  }
}
