/**
 * One client of the mock, at the address of one or more channels. Its requests get their replies; the
 * messages of the channels' receive operations are pushed, one of each at once and then one of each
 * every interval, starting on connect, or, where a send operation there is a subscription (subscribe.ts),
 * on the first subscription message (after its reply) and stopping at an unsubscription. Pushes and
 * replies draw from two seeded streams of their own, so that the pushes a seed gives do not depend on
 * when requests arrive.
 */
import type { WebSocket } from 'ws';
import { MessageKit, valueAt } from './messages';
import type { MockModel, MockOperation } from './mock-model';
import { random } from './sample';
import { subscriptionKind } from './subscribe';

const CLOSE_REFUSED = 1008;

/** A close reason is at most 123 bytes. */
const reason = (text: string) =>
  Buffer.from(text)
    .subarray(0, 123)
    .toString()
    .replace(/\uFFFD$/, '');

/** What every connection is served with. */
export interface Served {
  wire: NonNullable<MockModel['wire']>;
  kit: MessageKit;
  seed: number;
  interval: number;
  log: (line: string) => void;
}

/** A connection as the mock (and its control endpoint) sees it. */
export interface Connection {
  path: string;
  channels: Set<string>;
  send(value: unknown): void;
  /** Stops its pushes (the socket is closed by its owner). */
  stop(): void;
}

/** The seed of stream `k` (0 pushes, 1 replies) of connection `n`: distinct for every seed, n and k. */
const streamSeed = (seed: number, n: number, k: number) => (Math.imul(seed, 0x9e3779b1) + 2 * n + k) >>> 0;

/** Serve the `n`th socket of the mock, connected at `path`, the address of `channels`. */
export function serveConnection(
  ws: WebSocket,
  path: string,
  n: number,
  served: Served,
  channels: Set<string>,
): Connection {
  const { wire, kit, interval, log } = served;
  const here = (action: MockOperation['action']) =>
    wire.operations.filter((o) => o.action === action && channels.has(o.channel));
  const pushes = here('receive');
  const requests = here('send');
  const kinds = new Map(requests.map((o) => [o.id, subscriptionKind(o, kit)]));
  const pushRnd = random(streamSeed(served.seed, n, 0));
  const replyRnd = random(streamSeed(served.seed, n, 1));
  const send = (value: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(value));
  };
  let turn = 0;
  const push = () => {
    for (const op of pushes) {
      const id = op.messages[turn % op.messages.length];
      const value = id === undefined ? null : kit.make(id, pushRnd);
      if (value !== null) send(value);
      else log(`mock: cannot make a valid message of ${op.id} (${id}): not pushed`);
    }
    turn++;
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  const start = () => {
    if (timer !== null || pushes.length === 0) return;
    push();
    timer = setInterval(push, interval);
  };
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  if (![...kinds.values()].includes('subscribe')) start();
  ws.on('close', stop);
  ws.on('message', (raw, binary) => {
    const taken = takeFrame(ws, raw, binary, requests, kit);
    if (!taken) return;
    reply(taken.op, taken.frame, kit, replyRnd, send, log);
    if (kinds.get(taken.op.id) === 'subscribe') start();
    if (kinds.get(taken.op.id) === 'unsubscribe') stop();
  });
  return { path, channels, send, stop };
}

/** The frame and the send operation that takes it, or null when refused (the socket closed, naming why). */
function takeFrame(ws: WebSocket, raw: unknown, binary: boolean, requests: MockOperation[], kit: MessageKit) {
  let frame: unknown;
  try {
    if (binary) throw new Error('binary');
    frame = JSON.parse(String(raw));
  } catch {
    ws.close(CLOSE_REFUSED, reason('not a JSON text frame: the spec describes JSON messages'));
    return null;
  }
  const op = requests.find((o) => kit.classify(o.messages, frame) !== null);
  if (!op) {
    ws.close(CLOSE_REFUSED, reason(`no send operation of this channel takes this message`));
    return null;
  }
  return { op, frame };
}

/** The reply to a request, its correlation value copied; nothing for a send without a reply. */
function reply(
  op: MockOperation,
  frame: unknown,
  kit: MessageKit,
  rnd: () => number,
  send: (v: unknown) => void,
  log: (line: string) => void,
): void {
  if (!op.reply) return;
  const value = op.correlation === null ? undefined : valueAt(frame, op.correlation);
  const fixed = value === undefined ? {} : { [op.reply.correlation ?? op.correlation!]: value };
  const replies = op.reply.messages.map((id) => kit.make(id, rnd, fixed)).filter((v) => v !== null);
  if (replies.length > 0) send(replies[Math.floor(rnd() * replies.length)]);
  else log(`mock: cannot make a valid reply of ${op.id}: none sent`);
}
