/**
 * `exchange-api mock`: serve a mock of an AsyncAPI WebSocket API that speaks its own messages until
 * SIGINT or SIGTERM (docs/mock.md). The first stdout line is a public contract: `mock listening ws://HOST:PORT`.
 */
import { terminalText } from '@exchange-api/codegen';
import { numberFlag, parseCommand, reportFailure, usageError, consoleIo, type Io } from '../args';

export const MOCK_HELP = `Usage: exchange-api mock --spec <file> [--port 0] [--host 127.0.0.1] [--seed <n>]
                         [--interval <ms>] [--control]

Serves a mock of the API an AsyncAPI spec (3.x, or 1.x/2.x converted) describes, when the spec speaks its
own messages (not JSON-RPC: for our interface, run exchange-api sandbox). Prints "mock listening
ws://HOST:PORT" first; each channel is served at its address under that URL. A request gets its reply
with the correlation value copied; the messages the client receives are pushed one of each at once,
then every --interval: on connect, or where the spec has a subscribe message, when the client sends
it (until it unsubscribes). Everything sent is valid against the spec. A message no operation takes
closes the socket (1008, the reason naming it). Serves until SIGINT or SIGTERM.

Options:
  --spec <file>     the AsyncAPI spec (required)
  --port <n>        port to listen on (0 picks a free one; default 0)
  --host <host>     interface to listen on (default 127.0.0.1)
  --seed <n>        seed of every drawn value; the same seed gives the same messages (default 1)
  --interval <ms>   time between pushes after the first (default 1000)
  --control         also serve the control endpoint on 127.0.0.1 (second line: "mock control
                    http://127.0.0.1:PORT"): POST /push {"operation": "<id>"} pushes a message now
  -h, --help        this help

Examples:
  npx exchange-api mock --spec kraken.asyncapi.yaml
  npx exchange-api mock --spec gemini.asyncapi.yaml --port 8080 --seed 7 --interval 200 --control

Exit codes: 0 closed cleanly, 1 failed to start, 2 usage or spec errors (or a spec that speaks JSON-RPC).`;

type Flags = { spec?: string; port?: string; host?: string; seed?: string; interval?: string; control?: boolean };
const FLAGS = {
  spec: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  interval: { type: 'string' },
  control: { type: 'boolean' },
} as const;

export async function runMock(argv: string[], io: Io = consoleIo): Promise<number> {
  const values = parseCommand<Flags>('mock', MOCK_HELP, argv, FLAGS, io);
  if (typeof values === 'number') return values;
  if (!values.spec) return usageError('mock', '--spec <file> is required', io);
  const port = numberFlag('port', values.port ?? '0', { min: 0, max: 65535, integer: true });
  const seed = numberFlag('seed', values.seed ?? '1', { min: 0, max: 2 ** 32 - 1, integer: true });
  // Pushes faster than every 10 ms would only load the machine; slower than an hour is no push at all.
  const interval = numberFlag('interval', values.interval ?? '1000', {
    min: 10,
    max: 3_600_000,
    integer: true,
    unit: 'milliseconds',
  });
  for (const v of [port, seed, interval]) if (typeof v !== 'number') return usageError('mock', v.error, io);
  const { lenientModelFromSpec } = await import('@exchange-api/codegen');
  const { startMock, MockError } = await import('@exchange-api/mock');
  let model;
  try {
    const read = await lenientModelFromSpec(values.spec);
    // An example its schema refuses is never sent: the mock draws a valid message instead.
    for (const w of read.warnings) io.err(terminalText(w));
    model = read.model;
  } catch (err) {
    return reportFailure('mock', err, io);
  }
  let mock;
  try {
    mock = await startMock({
      model,
      host: values.host ?? '127.0.0.1',
      port: port as number,
      seed: seed as number,
      pushIntervalMs: interval as number,
      control: values.control === true,
      log: (line) => io.err(line),
    });
  } catch (err) {
    if (err instanceof MockError) return usageError('mock', err.message, io);
    io.err(`exchange-api mock: could not start: ${(err as Error).message}`);
    return 1;
  }
  io.out(`mock listening ${mock.url}`);
  if (mock.controlUrl) io.out(`mock control ${mock.controlUrl}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await mock.close();
  return 0;
}
