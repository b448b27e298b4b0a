/**
 * @scalar/mock-server, an independent mock of AsyncAPI WebSocket APIs (docs/mock.md, "An independent
 * peer"), serving a spec on loopback port 0: its WebSocket URL and a close that ends its connections.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { parse } from 'yaml';
import { serve } from '@hono/node-server';
import { createAsyncApiMockServer } from '@scalar/mock-server';

export interface ScalarPeer {
  url: string;
  close(): Promise<void>;
}

export async function serveScalar(file: string): Promise<ScalarPeer> {
  const { app, injectWebSocket } = await createAsyncApiMockServer({ document: parse(readFileSync(file, 'utf8')) });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  injectWebSocket(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  // A plain HTTP server here (no TLS or HTTP/2 options given to serve()).
  const http = server as Server;
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (http.closeAllConnections(), http.close(() => r()))),
  };
}
