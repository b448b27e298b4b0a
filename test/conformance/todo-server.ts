/**
 * A small server of another API (fixtures/todo-asyncapi.yaml): a to-do list over JSON-RPC 2.0 on a
 * WebSocket, with channels todos.low and todos.high pushed every 100 ms to their subscribers. `bugs` make
 * it depart from its spec on inputs only a generator sends.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface TodoBugs {
  /** Serve todo/add with members the closed params object does not name. */
  acceptUnknownMembers?: boolean;
}

type Todo = { id: number; title: string; priority: 'low' | 'high'; done: boolean; estimate?: number };
const PRIORITIES = ['low', 'high'];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why todo/add params are invalid ('' when valid). */
function addProblem(p: unknown, bugs: TodoBugs): string {
  if (!isObj(p)) return 'params must be an object';
  const known = ['title', 'priority', 'done', 'estimate'];
  if (!bugs.acceptUnknownMembers && Object.keys(p).some((k) => !known.includes(k))) return 'unknown member';
  if (typeof p.title !== 'string' || p.title.length < 1 || p.title.length > 50) return 'title';
  if (!PRIORITIES.includes(p.priority as string)) return 'priority';
  if ('done' in p && typeof p.done !== 'boolean') return 'done';
  if (
    'estimate' in p &&
    !(Number.isInteger(p.estimate) && (p.estimate as number) >= 0 && (p.estimate as number) <= 1000)
  )
    return 'estimate';
  return '';
}

function listProblem(p: unknown): string {
  if (p === null) return '';
  if (!isObj(p)) return 'params must be an object or null';
  if (Object.keys(p).some((k) => k !== 'done')) return 'unknown member';
  return 'done' in p && typeof p.done !== 'boolean' ? 'done' : '';
}

/** Start the to-do server on a loopback port. */
export async function startTodoServer(bugs: TodoBugs = {}): Promise<{ wsUrl: string; close(): Promise<void> }> {
  const todos: Todo[] = [{ id: 1, title: 'first', priority: 'low', done: false }];
  const server = createServer((_q, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    const subs = new Set<string>();
    const timer = setInterval(() => {
      for (const ch of subs) {
        const data = todos.find((t) => `todos.${t.priority}` === ch) ?? {
          id: 1,
          title: 'x',
          priority: ch.slice(6),
          done: false,
        };
        ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: ch, data } }));
      }
    }, 100);
    ws.on('close', () => clearInterval(timer));
    ws.on('message', (raw) => {
      let req: { id?: unknown; method?: unknown; params?: unknown };
      try {
        req = JSON.parse(raw.toString()) as typeof req;
      } catch {
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      }
      const reply = (body: object) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id ?? null, ...body }));
      const invalid = (why: string) => reply({ error: { code: -32602, message: 'Invalid params', data: why } });
      const p = req.params;
      if (req.method === 'todo/add') {
        const why = addProblem(p, bugs);
        if (why) return invalid(why);
        const q = p as Record<string, unknown>;
        const todo: Todo = {
          id: todos.length + 1,
          title: q.title as string,
          priority: q.priority as Todo['priority'],
          done: q.done === true,
          ...(q.estimate !== undefined ? { estimate: q.estimate as number } : {}),
        };
        todos.push(todo);
        return reply({ result: todo });
      }
      if (req.method === 'todo/list') {
        const why = listProblem(p);
        if (why) return invalid(why);
        const done = isObj(p) ? p.done : undefined;
        return reply({ result: todos.filter((t) => done === undefined || t.done === done) });
      }
      if (req.method === 'subscribe' || req.method === 'unsubscribe') {
        const channels = isObj(p) && Array.isArray(p.channels) ? p.channels.map(String) : null;
        if (req.method === 'subscribe' && !channels) return invalid('channels');
        const status: Record<string, string> = {};
        for (const ch of channels ?? [...subs]) {
          const ok = /^todos\.(low|high)$/.test(ch);
          status[ch] = ok ? 'ok' : 'unknown channel';
          if (ok && req.method === 'subscribe') subs.add(ch);
          else if (ok) subs.delete(ch);
        }
        return reply({ result: { status, current_subscriptions: [...subs] } });
      }
      reply({ error: { code: -32601, message: 'Method not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}/`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
