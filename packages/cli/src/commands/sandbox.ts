/**
 * `exchange-api sandbox`: run the local exchange until SIGINT or SIGTERM. The first stdout line is a
 * public contract: `sandbox listening ws://HOST:PORT/v3/ws http://HOST:PORT`.
 */
import { readFile } from 'node:fs/promises';
import { startSandbox, resolveOptions, SandboxOptionsError, type SandboxOptions } from '@exchange-api/sandbox';
import { parseCommand, usageError } from '../args';

export const SANDBOX_HELP = `Usage: exchange-api sandbox [--port 0] [--host 127.0.0.1] [--config <file.json>] [--seed <n>] [--control]

Runs the sandbox: a local exchange implementing the interface (JSON-RPC over WebSocket at /v3/ws,
HTTP POST at /v3/public/* and /v3/private/*) with a seeded simulated market. Prints
"sandbox listening ws://HOST:PORT/v3/ws http://HOST:PORT" first, serves until SIGINT or SIGTERM,
then closes cleanly.

Options:
  --port <n>       port to listen on (0 picks a free one; default 0)
  --host <host>    interface to listen on (default 127.0.0.1)
  --config <file>  JSON file of sandbox options: limits, login window, session keys, wallets,
                   instruments, market interval (see packages/sandbox/README.md); flags win over it
  --seed <n>       seed of the simulated market (default 1)
  --control        serve the control plane at /control (push payloads, faults, clock); off by default
  -h, --help       this help

Examples:
  npx exchange-api sandbox
  npx exchange-api sandbox --port 8080 --seed 7
  npx exchange-api sandbox --config ./sandbox.json --control

Exit codes: 0 closed cleanly, 1 failed to start, 2 usage errors.`;

/** Run the sandbox command; resolves with the exit code once the sandbox has closed. */
export async function runSandbox(argv: string[]): Promise<number> {
  const values = parseCommand<{ port?: string; host?: string; config?: string; seed?: string; control?: boolean }>('sandbox', SANDBOX_HELP, argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    config: { type: 'string' },
    seed: { type: 'string' },
    control: { type: 'boolean' },
  });
  if (typeof values === 'number') return values;
  const usage = (message: string) => usageError('sandbox', message);
  const integer = (flag: string, v: string | undefined, min: number, max: number): number | undefined | Error => {
    if (v === undefined) return undefined;
    if (!/^-?[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) return new Error(`--${flag} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
    return Number(v);
  };
  const port = integer('port', values.port, 0, 65535);
  if (port instanceof Error) return usage(port.message);
  const seed = integer('seed', values.seed, -2147483648, 2147483647);
  if (seed instanceof Error) return usage(seed.message);
  if (values.host !== undefined && values.host.trim() === '') return usage('--host must not be empty');
  /** resolveOptions's verdict on `input` as a usage error (exit 2), or null when it is valid. */
  const invalid = (input: unknown, where: string): number | null => {
    try {
      resolveOptions(input);
      return null;
    } catch (err) {
      if (err instanceof SandboxOptionsError) return usage(`${where}${err.message}`);
      throw err;
    }
  };

  let options: SandboxOptions = {};
  if (values.config !== undefined) {
    let text: string;
    try {
      text = await readFile(values.config, 'utf8');
    } catch (err) {
      return usage(`--config ${values.config}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return usage(`--config ${values.config}: not JSON (${(err as Error).message.split('\n')[0]})`);
    }
    // The file alone first, so its errors name it; the flags are merged only into a valid object.
    const bad = invalid(parsed, `--config ${values.config}: `);
    if (bad !== null) return bad;
    options = parsed as SandboxOptions;
  }
  if (port !== undefined) options = { ...options, port };
  if (seed !== undefined) options = { ...options, seed };
  if (values.host !== undefined) options = { ...options, host: values.host };
  if (values.control) options = { ...options, control: true };
  const bad = invalid(options, '');
  if (bad !== null) return bad;

  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    console.error(`exchange-api sandbox: cannot start: ${(err as Error).message}`);
    return 1;
  }
  console.log(`sandbox listening ${sandbox.wsUrl} ${sandbox.httpUrl}`);
  if (sandbox.controlUrl) console.log(`control plane at ${sandbox.controlUrl}`);
  const running = sandbox;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running.close().then(
        () => resolve(0),
        (err) => {
          console.error(`exchange-api sandbox: error while closing: ${(err as Error).message}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // Launchers such as `npx` (npm exec) die of SIGTERM without passing it on; a sandbox whose
    // launcher is gone would serve on with nobody able to stop it, so stop as if signalled.
    const launcher = process.ppid;
    const orphanWatch = setInterval(() => {
      if (process.ppid !== launcher) {
        clearInterval(orphanWatch);
        stop();
      }
    }, 250);
    orphanWatch.unref();
  });
}
