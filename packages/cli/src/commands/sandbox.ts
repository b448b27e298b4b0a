/**
 * `exchange-api sandbox`: run the local exchange until SIGINT or SIGTERM. The first stdout line is a
 * public contract: `sandbox listening ws://HOST:PORT/v3/ws http://HOST:PORT`.
 */
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { startSandbox, resolveOptions, SandboxOptionsError, type SandboxOptions } from '@exchange-api/sandbox';

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
  let values: { port?: string; host?: string; config?: string; seed?: string; control?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        seed: { type: 'string' },
        control: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    console.error(`exchange-api sandbox: ${(err as Error).message.split('\n')[0]}`);
    return 2;
  }
  if (values.help) {
    console.log(SANDBOX_HELP);
    return 0;
  }
  const usage = (message: string) => {
    console.error(`exchange-api sandbox: ${message}`);
    return 2;
  };
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
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
      return usage(`--config ${values.config}: the top level must be a JSON object (got ${got})`);
    }
    options = parsed as SandboxOptions;
  }
  if (port !== undefined) options = { ...options, port };
  if (seed !== undefined) options = { ...options, seed };
  if (values.host !== undefined) options = { ...options, host: values.host };
  if (values.control) options = { ...options, control: true };
  try {
    resolveOptions(options);
  } catch (err) {
    if (err instanceof SandboxOptionsError) return usage(`${values.config ? `--config ${values.config}: ` : ''}${err.message}`);
    throw err;
  }

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
