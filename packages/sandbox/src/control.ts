/**
 * The control plane: HTTP on the sandbox's own port, served only when the sandbox was started with
 * `control: true` (`--control`). Tests use it to push payloads, inject faults and move the clock.
 */
import type { ServerResponse } from 'node:http';
import type { SandboxInternals } from './server';
import { isObject } from './options';

type SendJson = (res: ServerResponse, status: number, body: unknown) => void;


class ControlError extends Error {}

function optionalId(body: Record<string, unknown>): number | undefined {
  const id = body.connectionId;
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isInteger(id)) throw new ControlError('connectionId must be an integer');
  return id;
}

function nonNegative(body: Record<string, unknown>, key: string): number {
  const v = body[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ControlError(`${key} must be a non-negative number`);
  return v;
}

/** Serve one control request. */
export async function handleControl(sb: SandboxInternals, method: string, path: string, text: string, res: ServerResponse, sendJson: SendJson): Promise<void> {
  const action = path.slice('/control/'.length);
  try {
    if (method === 'GET' && action === 'connections') {
      return sendJson(
        res,
        200,
        [...sb.connections.values()].map((c) => ({
          id: c.id,
          ip: c.ip,
          wallet: c.session?.wallet ?? null,
          subaccounts: c.session?.subaccounts ?? [],
          subscriptions: [...c.subscriptions],
        })),
      );
    }
    if (method !== 'POST') return sendJson(res, 404, { error: `no control action ${method} ${path} (POST push|drop|delay|garbage|advance, GET connections)` });
    let body: unknown = {};
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw new ControlError('body must be JSON');
      }
    }
    if (!isObject(body)) throw new ControlError('body must be a JSON object');
    const targets = (id: number | undefined) => [...sb.connections.values()].filter((c) => id === undefined || c.id === id);
    switch (action) {
      case 'push': {
        if (typeof body.channel !== 'string') throw new ControlError('channel must be a string (a filled-in address)');
        let data = body.data;
        if (body.generate === true) {
          data = sb.generate(body.channel);
          if (data === null) throw new ControlError(`${body.channel} matches no channel, so nothing can be generated for it`);
        } else if (!('data' in body)) throw new ControlError('give data, or generate: true');
        return sendJson(res, 200, { delivered: sb.push(body.channel, data) });
      }
      case 'drop': {
        const list = targets(optionalId(body));
        for (const c of list) c.ws.terminate();
        return sendJson(res, 200, { dropped: list.length });
      }
      case 'delay': {
        const ms = nonNegative(body, 'ms');
        for (const c of targets(optionalId(body))) c.delayMs = ms;
        return sendJson(res, 200, {});
      }
      case 'garbage': {
        if (body.text !== undefined && typeof body.text !== 'string') throw new ControlError('text must be a string');
        const list = targets(optionalId(body));
        for (const c of list) c.send((body.text as string | undefined) ?? 'garbage}{ not json');
        return sendJson(res, 200, { sent: list.length });
      }
      case 'advance': {
        const ms = nonNegative(body, 'ms');
        await sb.limits.advance(ms);
        return sendJson(res, 200, { nowMs: sb.clock.advance(ms) });
      }
      default:
        return sendJson(res, 404, { error: `no control action ${action} (push, drop, delay, garbage, advance, connections)` });
    }
  } catch (err) {
    if (err instanceof ControlError) return sendJson(res, 400, { error: err.message });
    throw err;
  }
}
