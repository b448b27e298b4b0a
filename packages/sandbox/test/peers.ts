/**
 * Hostile peers as small reusable helpers, on raw TCP sockets so that nothing answers for them: a
 * silent peer (completes the WebSocket upgrade, then never sends a frame or answers a ping) and a raw HTTP
 * exchange (send exactly these bytes, see what comes back and whether the server closes).
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

const opened: Socket[] = [];

/** Destroys the sockets a test opened (registered for every file by test/setup.ts). */
export function destroyPeers(): void {
  for (const s of opened.splice(0)) s.destroy();
}

function open(url: string, localAddress?: string): Promise<Socket> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port), localAddress }, () => resolve(socket));
    opened.push(socket);
    socket.once('error', reject);
  });
}

/** A peer that completed the upgrade and says nothing more. `closed` resolves when the server drops it. */
export interface SilentPeer {
  socket: Socket;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** Upgrade to a WebSocket at `wsUrl` by hand, then stay silent: no frames, no pongs. */
export async function silentPeer(wsUrl: string, localAddress?: string): Promise<SilentPeer> {
  const u = new URL(wsUrl);
  const socket = await open(wsUrl, localAddress);
  socket.on('error', () => {});
  let closed = false;
  const closedP = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
  const answered = new Promise<string>((resolve) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        socket.off('data', onData);
        // From here on what arrives is discarded (so that the server's close is seen): no pong, no frame.
        socket.on('data', () => {});
        resolve(text.split('\r\n')[0]!);
      }
    };
    socket.on('data', onData);
  });
  socket.write(
    `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const status = await answered;
  if (!status.includes(' 101 ')) throw new Error(`upgrade refused: ${status}`);
  return { socket, closed: closedP, isClosed: () => closed };
}

/** What a raw HTTP exchange saw: the response text so far, and whether the server closed the socket. */
export interface RawExchange {
  socket: Socket;
  /** Resolves with the response head and body once the server has answered (or closed). */
  response: Promise<string>;
  closed: Promise<void>;
}

/**
 * Send `head` (and optionally some body bytes) on a fresh socket to the server of `httpUrl`, and keep the socket open.
 */
export async function rawHttp(httpUrl: string, head: string, body: string | Buffer = ''): Promise<RawExchange> {
  const socket = await open(httpUrl);
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let text = '';
  const response = new Promise<string>((resolve) => {
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: *([0-9]+)/i.exec(text)?.[1];
      if (end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length)) resolve(text);
    });
    socket.once('close', () => resolve(text));
  });
  socket.write(head);
  if (body.length > 0) socket.write(body);
  return { socket, response, closed };
}

/** Resolve with the promise's value, or 'timeout' after ms. */
export function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms))),
  ]);
}

/**
 * Upgrade by hand and send one frame no WebSocket may send (reserved opcode 3): the server must drop
 * this peer with a protocol error. Resolves once the server has closed it.
 */
export async function badFramePeer(wsUrl: string): Promise<void> {
  const peer = await silentPeer(wsUrl);
  // FIN + opcode 3; masked (as a client's frames must be), empty payload.
  peer.socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
  await peer.closed;
}
