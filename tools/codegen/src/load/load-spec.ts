import { resolve, relative } from 'node:path';
import { YamlSource } from './yaml-source';
import { checkConventions } from './conventions';
import { findRefCycles } from './ref-cycles';
import { parseBounded, type ParserDiagnostic } from './parse-bounded';
import { SpecError, fromPointer, toPointer, type SpecProblem } from './spec-error';

/** A spec that passed the AsyncAPI parser and our conventions, as plain data with its source. */
export interface LoadedSpec {
  file: string;
  data: Record<string, unknown>;
  source: YamlSource;
  /** Warnings and notes that did not stop loading (parser hints included). */
  notes: SpecProblem[];
}

// Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
const SEVERITY = ['error', 'warning', 'warning', 'warning'] as const;

/**
 * Read and check a spec. Throws SpecError listing every error with file, line and JSON pointer;
 * never lets a parser exception escape as a stack trace.
 */
export async function loadSpec(file: string, options: { cwd?: string; parseBoundMs?: number } = {}): Promise<LoadedSpec> {
  const abs = resolve(options.cwd ?? process.cwd(), file);
  const display = relative(options.cwd ?? process.cwd(), abs) || abs;
  const source = YamlSource.read(abs, display);
  const problems: SpecProblem[] = [];

  checkConventions(source.data, (path, message, severity = 'error') => {
    problems.push({ file: display, pointer: toPointer(path), line: source.lineOf(path), message, severity });
  });

  // The parser spins forever on a $ref cycle that never reaches data: stop before it runs.
  const cycles = findRefCycles(source.data);
  for (const c of cycles) {
    const [first] = c.pointers;
    const only = c.pointers.length === 2;
    const message = only
      ? `${c.target} is only a $ref to itself (at ${first}): it never describes a value`
      : `$ref cycle that never reaches a value: ${c.pointers.join(' → ')}`;
    problems.push({ file: display, pointer: first!, line: source.lineOf(fromPointer(first!)), message, severity: 'error' });
  }
  if (cycles.length > 0) throw new SpecError(dedupe(problems.filter((p) => p.severity === 'error')));

  let diagnostics: ParserDiagnostic[] = [];
  try {
    diagnostics = await parseBounded(source.text, abs, options.parseBoundMs);
  } catch (err) {
    problems.push({ file: display, pointer: '#', message: `the AsyncAPI parser failed: ${(err as Error).message}`, severity: 'error' });
  }
  for (const d of diagnostics) {
    const severity = SEVERITY[d.severity] ?? 'warning';
    // The parser recommends its newest version; the conventions pin 3.0.0 on purpose (spec/README.md).
    if (d.code === 'asyncapi-latest-version') continue;
    const path = d.path ?? [];
    // Our own $ref check already named this place with a clearer message.
    if (d.code === 'invalid-ref' && problems.some((p) => p.pointer === toPointer(path))) continue;
    problems.push({
      file: display,
      pointer: toPointer(path),
      line: d.range ? d.range.start.line + 1 : source.lineOf(path),
      message: `${d.message} [${d.code}]`,
      severity,
    });
  }

  const errors = dedupe(problems.filter((p) => p.severity === 'error'));
  if (errors.length > 0) throw new SpecError(errors);
  return { file: display, data: source.data as Record<string, unknown>, source, notes: problems.filter((p) => p.severity !== 'error') };
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
