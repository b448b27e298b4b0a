/**
 * `exchange-api generate [--spec <file> --out <dir>] [--check]`: the command-line contract.
 * Exit 0 done (or current), 1 drift under --check, 2 usage or spec errors. Never a stack trace.
 */
import { parseArgs } from 'node:util';
import { SpecError, formatProblem } from './load/spec-error';
import { findRepoRoot, generateInto, generateRepository, type Emitter } from './generate';

export const GENERATE_HELP = `Usage: exchange-api generate [--spec <file> --out <dir>] [--check]

Regenerates types, validators and tables from an AsyncAPI 3.0 spec.

  (no --spec)        regenerate this repository's packages from spec/asyncapi.yaml
  --spec <file>      generate for any conforming spec (conventions: spec/README.md) ...
  --out <dir>        ... into this folder, with an index.ts that re-exports everything
  --check            write nothing; exit 1 and list the files that differ
  -h, --help         this text

Examples:
  npm run generate
  npm run generate -- --check
  npx exchange-api generate --spec ./staging.asyncapi.yaml --out ./src/exchange-sdk

Exit codes: 0 done or current, 1 generated files differ (--check), 2 usage or spec errors.`;

export async function runGenerate(argv: string[], io = { out: console.log, err: console.error }, extra: Emitter[] = []): Promise<number> {
  let values: { spec?: string; out?: string; check?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { spec: { type: 'string' }, out: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    io.err(`exchange-api generate: ${(err as Error).message}`);
    return 2;
  }
  if (values.help) {
    io.out(GENERATE_HELP);
    return 0;
  }
  if ((values.spec === undefined) !== (values.out === undefined)) {
    io.err('exchange-api generate: --spec and --out go together');
    return 2;
  }
  const check = values.check === true;
  const started = Date.now();
  try {
    let result;
    if (values.spec !== undefined && values.out !== undefined) {
      result = await generateInto(values.spec, values.out, { check });
    } else {
      const root = findRepoRoot();
      if (!root) {
        io.err('exchange-api generate: no spec/asyncapi.yaml with packages/types above this folder; use --spec <file> --out <dir>');
        return 2;
      }
      result = await generateRepository(root, { check, extra });
    }
    if (check) {
      if (result.differing.length > 0) {
        io.err(`generated files differ from the spec (${result.differing.length}):`);
        for (const f of result.differing) io.err(`  ${f}`);
        io.err('fix: npm run generate');
        return 1;
      }
      io.out(`generated files are current (${Date.now() - started} ms)`);
      return 0;
    }
    const changed = result.written.length + result.removed.length;
    io.out(changed === 0 ? `generated files were already current (${Date.now() - started} ms)` : `generated ${result.written.length} file(s), removed ${result.removed.length} (${Date.now() - started} ms)`);
    for (const f of result.written) io.out(`  wrote ${f}`);
    for (const f of result.removed) io.out(`  removed ${f}`);
    return 0;
  } catch (err) {
    if (err instanceof SpecError) {
      io.err(`exchange-api generate: the spec has ${err.problems.length} error(s)`);
      for (const p of err.problems) io.err(formatProblem(p));
      return 2;
    }
    io.err(`exchange-api generate: ${(err as Error).message}`);
    return 2;
  }
}
