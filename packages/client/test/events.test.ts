/**
 * A listener that throws is not swallowed: the other listeners still run and the emitting code goes
 * on; its error goes to the `error` listeners, or, when there is none (or an `error` listener threw),
 * is thrown again outside the emitter, an `uncaughtException` in Node as with EventEmitter.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { createClient, type ClientError, type ConnectionState, type WebSocketConstructor } from '../src/index';
import { startPeer, type Peer } from './peer';

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

describe('a listener that throws', () => {
  it(
    'reaches the error listeners as LISTENER_FAILED (cause: what it threw); the ' + 'other listeners still run',
    async () => {
      peer = await startPeer();
      const client = createClient({
        wsUrl: peer.url,
        WebSocket: WebSocket as unknown as WebSocketConstructor,
        validate: 'off',
        timeoutMs: 3000,
      });
      const boom = new Error('boom');
      const states: ConnectionState[] = [];
      const errors: ClientError[] = [];
      client.on('state', () => {
        throw boom;
      });
      client.on('state', (s) => states.push(s));
      client.on('error', (e) => errors.push(e));
      await client.connect();
      expect(states).toEqual(['connecting', 'open']);
      expect(errors.map((e) => [e.code, e.message, e.cause])).toEqual([
        ['LISTENER_FAILED', "a listener of 'state' threw: boom", boom],
        ['LISTENER_FAILED', "a listener of 'state' threw: boom", boom],
      ]);
      await client.close();
    },
  );

  it(
    'with no error listener, or from an error listener, is thrown again outside ' + 'the emitter (uncaughtException)',
    () => {
      const events = pathToFileURL(fileURLToPath(new URL('../src/events.ts', import.meta.url))).href;
      // A process of its own: an uncaught exception inside the test runner would be the runner's to report.
      const script = `
      import { Emitter } from ${JSON.stringify(events)};
      const seen = [];
      process.on('uncaughtException', (err) => seen.push('uncaught: ' + err.message));
      const bare = new Emitter(() => new Error('not used'));
      bare.on('state', () => { throw new Error('state listener'); });
      bare.on('state', () => seen.push('second state listener ran'));
      bare.emit('state', 'open');
      seen.push('emit returned');
      const withError = new Emitter(() => new Error('not used'));
      withError.on('error', () => { throw new Error('error listener'); });
      withError.emit('error', new Error('a fault'));
      seen.push('emit returned');
      setImmediate(() => console.log(JSON.stringify(seen)));
    `;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        'second state listener ran',
        'emit returned',
        'emit returned',
        'uncaught: state listener',
        'uncaught: error listener',
      ]);
    },
  );
});
