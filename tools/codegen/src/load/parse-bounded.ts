/**
 * The AsyncAPI parser, run with a time bound. It runs in a worker thread, so a spec it would spin on
 * (as it did on a $ref cycle, caught before it now) ends the worker after the bound instead of
 * hanging the command: no step of loading may go on forever.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One diagnostic of the parser, as plain data. */
export interface ParserDiagnostic {
  severity: number;
  path: Array<string | number>;
  message: string;
  code: string | number;
  range?: { start: { line: number } };
}

/** How long the parser may take on one spec (ours takes about a second on a loaded machine). */
export const PARSE_BOUND_MS = 60_000;

// The worker is a CommonJS script given as text, so it needs no file of its own in any build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Parser } = require(workerData.parserPath);
new Parser()
  .parse(workerData.text, { source: workerData.source })
  .then((parsed) => {
    const diagnostics = (parsed.diagnostics || []).map((d) => ({
      severity: d.severity, path: Array.from(d.path || []), message: String(d.message), code: d.code,
      range: d.range ? { start: { line: d.range.start.line } } : undefined,
    }));
    parentPort.postMessage({ diagnostics });
  })
  .catch((err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
`;

/** Where the parser's CommonJS entry is, resolved from this module (the CommonJS build shims import.meta.url). */
function parserPath(): string {
  return createRequire(import.meta.url).resolve('@asyncapi/parser');
}

/**
 * Parse a spec's text with the AsyncAPI parser in a worker; resolves to its diagnostics, rejects with
 * the parser's own error, or with "did not finish" after `boundMs` (the worker is stopped).
 */
export function parseBounded(text: string, source: string, boundMs = PARSE_BOUND_MS): Promise<ParserDiagnostic[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { text, source, parserPath: parserPath() } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the AsyncAPI parser did not finish within ${boundMs / 1000} s; stopped`));
    }, boundMs);
    const done = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (m: { diagnostics?: ParserDiagnostic[]; error?: string }) => {
      done();
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.diagnostics ?? []);
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', (code) => {
      done();
      reject(new Error(`the AsyncAPI parser stopped (exit ${code})`));
    });
  });
}
