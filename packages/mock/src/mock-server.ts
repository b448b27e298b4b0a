/**
 * The mock server: every channel of the spec at its address (under the root of the printed URL), on
 * one port; each connection served by connection.ts (replies, pushes on connect or on subscription,
 * refusals), and on request a control endpoint (control.ts). Everything sent is valid against its
 * message (messages.ts).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { channelsAt, pathnameOf } from './address';
import { serveConnection, type Connection } from './connection';
import { startControl, type Control } from './control';
import { MessageKit } from './messages';
import type { MockModel } from './mock-model';

export interface MockOptions {
  model: MockModel;
  host?: string;
  /** 0 picks a free port (the default). */
  port?: number;
  /** Seed of everything drawn (default 1); each connection draws from its own streams of it, by its number. */
  seed?: number;
  /** Pushes after the first (default 1000 ms). */
  pushIntervalMs?: number;
  /** Serve the control endpoint on 127.0.0.1 (control.ts); default off. */
  control?: boolean;
  /** Where the mock says what it cannot do (a message it cannot make valid); default: nowhere. */
  log?: (line: string) => void;
}

export interface Mock {
  /** `ws://HOST:PORT`: a client's URL; each channel's address is appended to it. */
  url: string;
  /** `http://127.0.0.1:PORT` of the control endpoint, when asked for. */
  controlUrl?: string;
  close(): Promise<void>;
}

/** The spec cannot be mocked (it speaks JSON-RPC: the sandbox is its server). */
export class MockError extends Error {}

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
  const connections = new Set<Connection>();
  let count = 0;

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
    wss.handleUpgrade(req, socket, head, (ws) => {
      const path = pathnameOf(req.url ?? '/')!;
      const served = { wire, kit, seed, interval, log };
      const c = serveConnection(ws, path, count++, served, new Set(channels));
      connections.add(c);
      ws.on('close', () => connections.delete(c));
    });
  });

  // Each thing the mock cannot do is said once, not at every push.
  const said = new Set<string>();
  const log = (line: string) => {
    if (!said.has(line)) options.log?.(line);
    said.add(line);
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = http.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let control: Control | undefined;
  if (options.control) control = await startControl({ wire, kit, seed, connections: () => connections });
  return {
    url: `ws://${host}:${port}`,
    ...(control ? { controlUrl: control.url } : {}),
    close: async () => {
      await control?.close();
      for (const c of connections) c.stop();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
