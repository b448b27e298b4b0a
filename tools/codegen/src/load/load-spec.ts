import { isAbsolute, resolve, relative } from 'node:path';
import { YamlSource } from './yaml-source';
import { bundleSpec } from './bundle';
import { checkConventions } from './conventions';
import { findRefCycles } from './ref-cycles';
import { ParseTooSlow, parseBounded, type ParserDiagnostic } from './parse-bounded';
import { verdictSlot } from './parse-cache';
import { limitProblems, treeFacts } from './spec-limits';
import { SpecError, fromPointer, toPointer, type SpecProblem } from './spec-error';
import { isObj, type SpecDocument } from './spec-types';
import { conversionLines, convertToV3, convertibleVersion, type Conversion } from './convert-v2';

/**
 * How a spec is loaded: `cwd` resolves a relative path; `parseBoundMs` bounds the parser's CPU time;
 * `parseCache: false` runs the parser even when a verdict on the same text is kept (load/parse-cache.ts);
 * `onConverted` gets the lines saying a 1.x/2.x document was converted (by default they go to stderr,
 * once per file and process, whichever command loaded it).
 */
export interface LoadOptions {
  cwd?: string;
  parseBoundMs?: number;
  parseCache?: boolean;
  onConverted?: (lines: string[]) => void;
}

/** A spec that passed the AsyncAPI parser and our conventions, as plain data with its source. */
export interface LoadedSpec {
  file: string;
  data: SpecDocument;
  source: YamlSource;
  /** Warnings and notes that did not stop loading (parser hints included). */
  notes: SpecProblem[];
  /** Set when the file is AsyncAPI 1.x/2.x: `data` is its conversion to 3.0.0. */
  conversion?: Conversion;
}

// Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
const SEVERITY = ['error', 'warning', 'warning', 'warning'] as const;

/**
 * A spec read and checked by our own rules (conventions, `$ref` cycles), with the AsyncAPI parser's
 * verdict still to come: `draft` is the spec as data now (null when our checks already refuse it),
 * `checked` settles once the parser (in its worker) is done, to the same spec with every note, or
 * rejects with a SpecError listing every error.
 */
export interface PendingSpec {
  draft: LoadedSpec | null;
  checked: Promise<LoadedSpec>;
}

/**
 * Read and check a spec. Throws SpecError listing every error with file, line and JSON pointer;
 * never lets a parser exception escape as a stack trace.
 */
export async function loadSpec(file: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  return beginLoad(file, options).checked;
}

/**
 * Run `work` on a spec while the parser checks it: the two run side by side (the parser in its worker
 * thread). The parser's verdict wins: a spec with errors rejects with its SpecError whatever the work
 * did; otherwise the work's result (or its own error) comes back.
 */
export async function withCheckedSpec<T>(
  file: string,
  options: LoadOptions,
  work: (spec: LoadedSpec) => T | Promise<T>,
): Promise<T> {
  const pending = beginLoad(file, options);
  const early = pending.draft && settle(work, pending.draft);
  // Without a draft our checks refused the spec: `checked` rejects, with the parser's errors too.
  const spec = await pending.checked;
  const done = await (early ?? settle(work, spec));
  if ('error' in done) throw placedError(done.error, spec);
  return done.value;
}

/** The work's result or its error, as a value. */
function settle<T>(
  work: (spec: LoadedSpec) => T | Promise<T>,
  spec: LoadedSpec,
): Promise<{ value: T } | { error: unknown }> {
  return Promise.resolve()
    .then(() => work(spec))
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
}

/**
 * Read the spec and apply our own checks now (its size and depth limits, a `$ref` cycle: each throws at
 * once, as the parser would take minutes or spin on it); start the parser. A stack overflow in our own
 * checks is a SpecError naming the file, never a bare RangeError.
 */
export function beginLoad(file: string, options: LoadOptions = {}): PendingSpec {
  try {
    return startLoad(file, options);
  } catch (err) {
    if (!isStackOverflow(err)) throw err;
    throw new SpecError([{ file, pointer: '#', message: overflowMessage('reading it'), severity: 'error' }]);
  }
}

function startLoad(file: string, options: LoadOptions): PendingSpec {
  const { abs, display, source, conversion } = readSource(file, options.cwd ?? process.cwd());
  if (conversion) (options.onConverted ?? stderrOnce(abs))(conversionLines(display, conversion));
  const problems: SpecProblem[] = [];

  // A 1.x/2.x document was converted above; any other version (a 4.x, a 2.x the converter does not
  // name) parses, but its channels and operations mean something else: refuse it at once.
  const version = versionProblem(source.data);
  if (version)
    throw new SpecError([
      { file: display, pointer: '#/asyncapi', line: source.lineOf(['asyncapi']), message: version, severity: 'error' },
    ]);

  const view = checkConventions(source.data, (path, message, severity = 'error') => {
    problems.push({ file: display, pointer: toPointer(path), line: source.lineOf(path), message, severity });
  });

  // The parser spins forever on a $ref cycle that never reaches data: stop before it runs.
  const cycles = cycleProblems(source, display);
  problems.push(...cycles);
  if (cycles.length > 0)
    throw new SpecError(dedupe(problems.filter((p) => p.severity === 'error')).map((p) => placed(p, display, source)));

  const loaded = (data: SpecDocument, notes: SpecProblem[]): LoadedSpec => ({
    file: display,
    data,
    source,
    notes: notes.map((p) => placed(p, display, source)),
    ...(conversion ? { conversion } : {}),
  });
  const checked = parserProblems(abs, source, display, problems, options).then((all) => {
    const errors = dedupe(all.filter((p) => p.severity === 'error'));
    // No view means our checks reported an error: `errors` is not empty then.
    if (errors.length > 0 || view === null) throw new SpecError(errors.map((p) => placed(p, display, source)));
    return loaded(
      view,
      all.filter((p) => p.severity !== 'error'),
    );
  });
  return {
    draft:
      view &&
      loaded(
        view,
        problems.filter((p) => p.severity !== 'error'),
      ),
    checked,
  };
}

/** The spec file, read (bundled, and converted when 1.x/2.x), and its name in messages: as the user named it. */
function readSource(
  file: string,
  cwd: string,
): { abs: string; display: string; source: YamlSource; conversion?: Conversion } {
  const abs = resolve(cwd, file);
  // A file is named as the user named the spec: an absolute path stays absolute, never ../../ from here.
  const shown = (f: string) => (isAbsolute(file) ? f : relative(cwd, f) || f);
  const display = shown(abs);
  // Its size and depth are checked before anything walks it (the bundler recurses), and again once bundled.
  const main = YamlSource.read(abs, display);
  guardLimits(main, display);
  // A spec split over files becomes one document first (load/bundle.ts); one without such refs is left as it is.
  const source = bundleSpec(main, abs, shown);
  if (source !== main) guardLimits(source, display);
  const from = convertibleVersion(source.data);
  if (from === null) return { abs, display, source };
  const done = convertToV3(source.data);
  if ('error' in done)
    throw new SpecError([
      {
        file: display,
        pointer: '#/asyncapi',
        line: source.lineOf(['asyncapi']),
        message: done.error,
        severity: 'error',
      },
    ]);
  return { abs, display, source: source.converted(done.data, from), conversion: done.conversion };
}

/** Files whose conversion was already told on stderr in this process (a command may load a spec twice). */
const told = new Set<string>();
const stderrOnce =
  (abs: string) =>
  (lines: string[]): void => {
    if (told.has(abs)) return;
    told.add(abs);
    for (const line of lines) process.stderr.write(`${line}\n`);
  };

/** Throw a SpecError naming every limit (load/spec-limits.ts) the spec goes beyond, at its place. */
function guardLimits(source: YamlSource, display: string): void {
  const problems = limitProblems(source.data, { file: display, lineOf: (path) => source.lineOf(path) });
  if (problems.length > 0) throw new SpecError(problems.map((p) => placed(p, display, source)));
}

/** Whether an error is V8's stack overflow (`RangeError: Maximum call stack size exceeded`). */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /Maximum call stack size exceeded/.test(err.message);
}

/** What a stack overflow while `doing` something to a spec says (one line, no stack trace). */
function overflowMessage(doing: string): string {
  return (
    `the spec is too large or too deeply nested for ${doing} (Maximum call stack ` +
    `size exceeded); see docs/generating.md, "Limits"`
  );
}

/** Each `$ref` cycle that never reaches a value, as a problem at its first place. */
function cycleProblems(source: YamlSource, display: string): SpecProblem[] {
  return findRefCycles(source.data).map((c) => {
    const [first] = c.pointers;
    const only = c.pointers.length === 2;
    const message = only
      ? `${c.target} is only a $ref to itself (at ${first}): it never describes a value`
      : `$ref cycle that never reaches a value: ${c.pointers.join(' → ')}`;
    return {
      file: display,
      pointer: first!,
      line: source.lineOf(fromPointer(first!)),
      message,
      severity: 'error' as const,
    };
  });
}

/** Our problems and the parser's diagnostics, once the parser (in its worker, bounded in time) is done. */
function parserProblems(
  abs: string,
  source: YamlSource,
  display: string,
  problems: SpecProblem[],
  options: LoadOptions,
): Promise<SpecProblem[]> {
  // A bundled or converted spec goes to the parser as the one document it now is (JSON is YAML), named
  // by the main file.
  const text = source.isRewritten ? JSON.stringify(source.data, null, 1) : source.text;
  const slot = options.parseCache === false ? null : verdictSlot(text);
  const parse = () => parseBounded(text, abs, options.parseBoundMs);
  const verdict = slot ? slot.settle(parse) : parse();
  return verdict.then(
    (diagnostics) => withParserDiagnostics(problems, diagnostics, display, source),
    (err: unknown) => [
      ...problems,
      { file: display, pointer: '#', message: parserFailure(err, display), severity: 'error' as const },
    ],
  );
}

/** The one line for a parser that failed: too slow (stopped at the bound), out of stack, or its own error. */
function parserFailure(err: unknown, display: string): string {
  if (err instanceof ParseTooSlow)
    return (
      `spec too slow to parse: stopped after ${seconds(err.elapsedMs)} s of CPU ` +
      `time (${display}); the bound is ${err.boundMs / 1000} s`
    );
  const message = (err as Error).message;
  if (/Maximum call stack size exceeded/.test(message)) return overflowMessage('the AsyncAPI parser');
  return `the AsyncAPI parser failed: ${message}`;
}

/** Milliseconds as seconds: a tenth under 10 s, whole ones above. */
const seconds = (ms: number): string => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** Why the document's `asyncapi` version is not one this toolkit reads (3.x, or 1.x/2.x converted), or null. */
function versionProblem(data: unknown): string | null {
  const found = isObj(data) ? data.asyncapi : undefined;
  if (typeof found === 'string' && /^3\./.test(found.trim())) return null;
  // Not a version at all: the parser says what is wrong with it.
  if (typeof found !== 'string' || !/^\d+\./.test(found.trim())) return null;
  return (
    'this toolkit reads AsyncAPI 3.x documents, and converts 1.x and 2.x ones; ' +
    `this one is AsyncAPI ${found.trim()}`
  );
}

/** Our problems plus the parser's diagnostics, minus the ones that only repeat ours or argue with the conventions. */
function withParserDiagnostics(
  problems: SpecProblem[],
  diagnostics: ParserDiagnostic[],
  display: string,
  source: YamlSource,
): SpecProblem[] {
  const all = [...problems];
  for (const d of diagnostics) {
    const severity = SEVERITY[d.severity] ?? 'warning';
    // The parser recommends its newest version; the conventions pin 3.0.0 on purpose (spec/README.md).
    if (d.code === 'asyncapi-latest-version') continue;
    const path = d.path ?? [];
    // Our own $ref check already named this place with a clearer message.
    if (d.code === 'invalid-ref' && problems.some((p) => p.pointer === toPointer(path))) continue;
    all.push({
      file: display,
      pointer: toPointer(path),
      // A bundled or converted spec was parsed as other text: its lines are the spec's only through the path.
      line: d.range && !source.isRewritten ? d.range.start.line + 1 : source.lineOf(path),
      message: `${d.message} [${d.code}]`,
      severity,
    });
  }
  return all;
}

/**
 * A problem of a bundled spec at a node read from another file, named by that file, its line and its
 * pointer there (with the place in the bundle and the line of the $ref in the message).
 */
function placed(p: SpecProblem, display: string, source: YamlSource): SpecProblem {
  if (p.file !== display || !source.isBundled) return p;
  let path: string[];
  try {
    path = fromPointer(p.pointer);
  } catch {
    return p;
  }
  const origin = source.where(path);
  if (!origin) return p;
  const via = origin.siteLine !== undefined ? `${display}:${origin.siteLine}` : display;
  return {
    ...p,
    file: origin.file,
    line: origin.line,
    pointer: origin.pointer,
    message: `${p.message} (bundled as ${p.pointer} by the $ref at ${via})`,
  };
}

/**
 * A SpecError of work on a bundled spec, its problems placed in the files they come from; a stack
 * overflow as a SpecError naming the spec and its deepest place (the likeliest cause); any other error
 * as it is.
 */
export function placedError(error: unknown, spec: LoadedSpec): unknown {
  if (isStackOverflow(error)) {
    const { deepest } = treeFacts(spec.data);
    const problem: SpecProblem = {
      file: spec.file,
      pointer: toPointer(deepest),
      line: spec.source.lineOf(deepest),
      message: `${overflowMessage('processing it')}; its deepest place, ${deepest.length} levels down, is here`,
      severity: 'error',
    };
    return new SpecError([placed(problem, spec.file, spec.source)]);
  }
  if (!(error instanceof SpecError) || !spec.source.isBundled) return error;
  return new SpecError(error.problems.map((p) => placed(p, spec.file, spec.source)));
}

function dedupe(list: SpecProblem[]): SpecProblem[] {
  const seen = new Set<string>();
  return list.filter((p) => {
    const k = `${p.pointer}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
