/**
 * The mock server: every channel of the spec at its address (under the root of the printed URL), on
 * one port. A client's message that a send operation with a reply takes gets its reply, the correlation
 * value copied; the messages of the channel's receive operations are pushed, one of each at once on
 * connect, then one of each every `pushIntervalMs`, in turn through their messages. Everything sent is
 * valid against its message (messages.ts). A frame no operation there takes is refused by name: the
 * socket is closed with 1008 and the reason (the spec gives no error message to answer with).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { channelsAt } from './address';
import { MessageKit, valueAt } from './messages';
import type { MockModel, MockOperation } from './mock-model';
import { random } from './sample';

export interface MockOptions {
  model: MockModel;
  host?: string;
  /** 0 picks a free port (the default). */
  port?: number;
  /** Seed of everything drawn (default 1); each connection draws from seed + its number. */
  seed?: number;
  /** Pushes after the first (default 1000 ms). */
  pushIntervalMs?: number;
  /** Where the mock says what it cannot do (a message it cannot make valid); default: nowhere. */
  log?: (line: string) => void;
}

export interface Mock {
  /** `ws://HOST:PORT`: a client's URL; each channel's address is appended to it. */
  url: string;
  close(): Promise<void>;
}

/** The spec cannot be mocked (it speaks JSON-RPC: the sandbox is its server). */
export class MockError extends Error {}

const CLOSE_REFUSED = 1008;
/** A close reason is at most 123 bytes. */
const reason = (text: string) =>
  Buffer.from(text)
    .subarray(0, 123)
    .toString()
    .replace(/\uFFFD$/, '');

export async function startMock(options: MockOptions): Promise<Mock> {
  const { model } = options;
  if (!model.wire)
    throw new MockError(
      `${model.title} speaks JSON-RPC frames, not its own messages: its server is exchange-api sandbox`,
    );
  const wire = model.wire;
  const kit = new MessageKit(model);
  const seed = options.seed ?? 1;
  const interval = options.pushIntervalMs ?? 1000;
  const timers = new Set<ReturnType<typeof setInterval>>();
  let connections = 0;

  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end(`${model.title} mock: WebSocket only\n`);
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const channels = channelsAt(wire.channels, req.url ?? '/').map((c) => c.id);
    if (channels.length === 0) {
      socket.end(`HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\nno channel of the spec at ${req.url}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, new Set(channels)));
  });

  // Each thing the mock cannot do is said once, not at every push.
  const said = new Set<string>();
  const log = (line: string) => {
    if (!said.has(line)) options.log?.(line);
    said.add(line);
  };
  const serve = (ws: WebSocket, channels: Set<string>) =>
    serveConnection(ws, channels, { wire, kit, rnd: random(seed + connections++), interval, timers, log });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = http.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `ws://${host}:${port}`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/** What one connection is served with. */
interface Served {
  wire: NonNullable<MockModel['wire']>;
  kit: MessageKit;
  rnd: () => number;
  interval: number;
  timers: Set<ReturnType<typeof setInterval>>;
  log: (line: string) => void;
}

/** One client at the address of `channels`: pushes on connect and every interval, replies to its requests. */
function serveConnection(ws: WebSocket, channels: Set<string>, { wire, kit, rnd, interval, timers, log }: Served) {
  const here = (action: MockOperation['action']) =>
    wire.operations.filter((o) => o.action === action && channels.has(o.channel));
  const pushes = here('receive');
  const requests = here('send');
  const send = (value: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(value));
  let turn = 0;
  const push = () => {
    for (const op of pushes) {
      const id = op.messages[turn % op.messages.length];
      const value = id === undefined ? null : kit.make(id, rnd);
      if (value !== null) send(value);
      else log(`mock: cannot make a valid message of ${op.id} (${id}): not pushed`);
    }
    turn++;
  };
  push();
  const timer = setInterval(push, interval);
  timers.add(timer);
  ws.on('close', () => (clearInterval(timer), timers.delete(timer)));
  ws.on('message', (raw, binary) => {
    let frame: unknown;
    try {
      if (binary) throw new Error('binary');
      frame = JSON.parse(String(raw));
    } catch {
      ws.close(CLOSE_REFUSED, reason('not a JSON text frame: the spec describes JSON messages'));
      return;
    }
    const op = requests.find((o) => kit.classify(o.messages, frame) !== null);
    if (!op) {
      ws.close(CLOSE_REFUSED, reason(`no send operation of this channel takes this message`));
      return;
    }
    if (!op.reply) return;
    const value = op.correlation === null ? undefined : valueAt(frame, op.correlation);
    const fixed = value === undefined ? {} : { [op.reply.correlation ?? op.correlation!]: value };
    const replies = op.reply.messages.map((id) => kit.make(id, rnd, fixed)).filter((v) => v !== null);
    if (replies.length > 0) send(replies[Math.floor(rnd() * replies.length)]);
    else log(`mock: cannot make a valid reply of ${op.id}: none sent`);
  });
}
