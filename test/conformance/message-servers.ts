/**
 * Servers written from the five public WebSocket specs of test/sdk/fixtures/public/, on loopback port 0,
 * each with the faults the message runner must catch: a reply without its correlation id, a message of
 * no receive operation, a wrong type in a payload, no reply at all, a close on a valid message. A right server answers only what its
 * spec lets it answer validly: an input it cannot answer validly gets no answer (as a server that checks
 * its input does).
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export const SPECS = [
  'kraken-message-filter',
  'kraken-multiple-channels',
  'gemini',
  'slack-rtm',
  'postman-echo',
] as const;
export type SpecName = (typeof SPECS)[number];
export type Fault = 'none' | 'uncorrelated' | 'unknown' | 'wrong-type' | 'silent' | 'closes';

export interface MsgServer {
  url: string;
  close(): Promise<void>;
}

type Send = (v: unknown) => void;

async function serve(
  onConnection: (ws: WebSocket, path: string, send: Send) => void,
  pathname = '',
): Promise<MsgServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (ws, req) => onConnection(ws, req.url ?? '', (v) => ws.send(JSON.stringify(v))));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}${pathname}`,
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      return new Promise((r) => wss.close(() => r()));
    },
  };
}

/** The frame as an object, or null (an array, a scalar, not JSON): such frames get no answer. */
function objectOf(raw: unknown): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(String(raw));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const KRAKEN_NAMES = ['book', 'ohlc', 'openOrders', 'ownTrades', 'spread', 'ticker', 'trade'];
const PAIR = /[A-Z\s]+\/[A-Z\s]+/;

/** A subscriptionStatus for a (un)subscribe, with only what the schema takes of the request. */
function subscriptionStatus(m: Record<string, unknown>, fault: Fault) {
  const sub = m.subscription as Record<string, unknown> | undefined;
  const name = typeof sub?.name === 'string' && KRAKEN_NAMES.includes(sub.name) ? sub.name : null;
  const reqid = fault === 'uncorrelated' ? {} : { reqid: m.reqid };
  // The spec leaves the subscription optional: without one the answer is the error status.
  if (name === null) return { event: 'subscriptionStatus', ...reqid, errorMessage: 'subscription name missing' };
  const pair = Array.isArray(m.pair) && m.pair.every((p) => typeof p === 'string' && PAIR.test(p)) ? m.pair : undefined;
  return {
    event: 'subscriptionStatus',
    ...reqid,
    // A wrong type in a reply too: the reply's schema is judged as a push's is.
    channelID: fault === 'wrong-type' ? '42' : 42,
    channelName: name,
    ...(pair ? { pair } : {}),
    status: 'online',
    subscription: { name },
  };
}

/** Kraken's server, as both Kraken specs describe it: status on connect, pong, subscriptionStatus, heartbeats. */
function kraken(fault: Fault): Promise<MsgServer> {
  return serve((ws, _path, send) => {
    send({
      event: 'systemStatus',
      connectionID: fault === 'wrong-type' ? 'seven' : 7,
      status: 'online',
      version: '1.9',
    });
    ws.on('message', (raw) => {
      const m = objectOf(raw);
      if (!m || fault === 'silent' || (m.reqid !== undefined && !Number.isInteger(m.reqid))) return;
      if (m.event === 'ping') send(fault === 'uncorrelated' ? { event: 'pong' } : { event: 'pong', reqid: m.reqid });
      if (m.event === 'subscribe' || m.event === 'unsubscribe') {
        send(subscriptionStatus(m, fault));
        send({ event: 'heartbeat' });
        if (fault === 'unknown') send({ event: 'bookSnapshot', asks: [] });
      }
    });
  });
}

/** Gemini's market data: an update and a heartbeat on connect at /v1/marketdata/<symbol>. */
function gemini(fault: Fault): Promise<MsgServer> {
  return serve((_ws, path, send) => {
    if (!/^\/v1\/marketdata\/[a-z0-9]+(\?|$)/.test(path)) return;
    send({
      type: 'update',
      eventId: 36902233362,
      timestamp: 1619769673,
      timestampms: 1619769673527,
      socket_sequence: fault === 'wrong-type' ? 'first' : 0,
      events: [{ type: 'change', side: 'bid', price: 54350.4, remaining: 0.002, delta: 0.002, reason: 'place' }],
    });
    send({ type: 'heartbeat', socket_sequence: 1 });
    if (fault === 'unknown') send({ type: 'candles_1m_updates', changes: [] });
  });
}

/** Slack RTM: hello on connect; a message event for each message sent. */
function slack(fault: Fault): Promise<MsgServer> {
  return serve((ws, _path, send) => {
    send({ type: 'hello' });
    if (fault === 'unknown') send({ type: 'no_such_event' });
    ws.on('message', (raw) => {
      const m = objectOf(raw);
      if (!m || m.type !== 'message') return;
      if (fault === 'closes') return ws.close(1008, 'not today');
      const text = typeof m.text === 'string' ? m.text : '';
      const channel = typeof m.channel === 'string' ? m.channel : 'C1';
      send({ type: 'message', channel, text, user: 'U1', ts: fault === 'wrong-type' ? 1 : '1.0' });
    });
  });
}

/** Postman's echo at /raw: every frame back as it came. */
function postman(fault: Fault): Promise<MsgServer> {
  return serve((ws, _path, send) => {
    if (fault === 'unknown') send({ hello: 'nobody asked' });
    ws.on('message', (raw) => {
      if (fault !== 'silent') ws.send(String(raw));
    });
    void send;
  }, '/raw');
}

export function serveSpec(name: SpecName, fault: Fault = 'none'): Promise<MsgServer> {
  if (name === 'gemini') return gemini(fault);
  if (name === 'slack-rtm') return slack(fault);
  if (name === 'postman-echo') return postman(fault);
  return kraken(fault);
}

/** The faults each spec can show: Gemini and Slack declare no reply, Postman's echo no correlation id nor type. */
export const FAULTS: Record<SpecName, Fault[]> = {
  'kraken-message-filter': ['uncorrelated', 'unknown', 'wrong-type', 'silent'],
  'kraken-multiple-channels': ['uncorrelated', 'unknown', 'wrong-type', 'silent'],
  gemini: ['unknown', 'wrong-type'],
  'slack-rtm': ['unknown', 'wrong-type', 'closes'],
  'postman-echo': ['unknown', 'silent'],
};
