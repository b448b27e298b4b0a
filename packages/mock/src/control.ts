/**
 * The mock's control endpoint (off unless asked for): plain HTTP on 127.0.0.1 only, never on the mock's
 * own interface, so nothing off the machine can reach it. `POST /push` pushes a chosen message of a
 * receive operation to the clients connected at its channel, now; `GET /` lists what can be pushed
 * (docs/mock.md, "The control endpoint"). What it does not take is refused by name, with a status.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from './connection';
import type { MessageKit } from './messages';
import type { MockModel, MockOperation } from './mock-model';
import { random } from './sample';

export interface Control {
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

interface ControlOptions {
  wire: NonNullable<MockModel['wire']>;
  kit: MessageKit;
  seed: number;
  connections: () => Iterable<Connection>;
}

/** The largest request body taken, and how long it may take to arrive. */
const MAX_BODY = 1024 * 1024;
const BODY_MS = 10_000;
const KEYS = ['operation', 'message', 'payload', 'path'];

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startControl(options: ControlOptions): Promise<Control> {
  const rnd = random((options.seed ^ 0x5eed) >>> 0);
  const server = createServer((req, res) => {
    handle(req, options, rnd).then(
      (body) => reply(res, 200, body),
      (err: unknown) =>
        err instanceof Refused
          ? reply(res, err.status, { error: err.message })
          : reply(res, 500, { error: `the mock failed: ${(err as Error).message}` }),
    );
  });
  server.requestTimeout = BODY_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
}

async function handle(req: IncomingMessage, o: ControlOptions, rnd: () => number): Promise<unknown> {
  const path = (req.url ?? '/').split('?')[0];
  const receives = o.wire.operations.filter((op) => op.action === 'receive');
  if (path === '/' && req.method === 'GET')
    return {
      operations: receives.map((op) => ({
        id: op.id,
        channel: op.channel,
        messages: op.messages.map((id) => o.kit.message(id).key),
      })),
    };
  if (path !== '/push') throw new Refused(404, `no such endpoint: ${path} (POST /push, GET /)`);
  if (req.method !== 'POST') throw new Refused(405, `${path} takes POST, not ${req.method}`);
  const body = await readJson(req);
  const op = receives.find((r) => r.id === body.operation);
  if (!op)
    throw new Refused(
      404,
      `"operation" must name a receive operation (${receives.map((r) => r.id).join(', ')}); got ` +
        JSON.stringify(body.operation),
    );
  const payload = chosen(op, body, o.kit, rnd);
  if (body.path !== undefined && typeof body.path !== 'string')
    throw new Refused(400, '"path" must be a string: the path clients connected on (without the query)');
  let pushed = 0;
  for (const c of o.connections()) {
    if (!c.channels.has(op.channel) || (body.path !== undefined && c.path !== body.path)) continue;
    c.send(payload);
    pushed++;
  }
  return { pushed, payload };
}

/** The message to push: the payload given (valid against the operation's messages), else one made. */
function chosen(op: MockOperation, body: Record<string, unknown>, kit: MessageKit, rnd: () => number): unknown {
  let ids = op.messages;
  if (body.message !== undefined) {
    ids = op.messages.filter((id) => kit.message(id).key === body.message);
    if (ids.length === 0)
      throw new Refused(
        404,
        `"message" must be one of ${op.id}'s messages (${op.messages.map((id) => kit.message(id).key).join(', ')})` +
          `; got ${JSON.stringify(body.message)}`,
      );
  }
  if (body.payload !== undefined) {
    if (kit.classify(ids, body.payload) !== null) return body.payload;
    const why = ids.map((id) => (kit.valid(id, body.payload), `${kit.message(id).key}: ${kit.why(id)}`));
    throw new Refused(422, `the payload is no valid message of ${op.id}: ${why.join(' | ')}`);
  }
  const id = ids[Math.floor(rnd() * ids.length)]!;
  const made = kit.make(id, rnd);
  if (made === null) throw new Refused(422, `the mock cannot make a valid ${kit.message(id).key} message`);
  return made;
}

/** The request's body as a JSON object with only the keys the endpoint knows. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refused(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refused(400, 'the body is not JSON: send {"operation": "<receive operation id>"}');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Refused(400, 'the body must be a JSON object: {"operation": "<receive operation id>"}');
  const unknown = Object.keys(body).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0)
    throw new Refused(400, `unknown key(s) ${unknown.join(', ')}: the body takes ${KEYS.join(', ')}`);
  return body as Record<string, unknown>;
}
