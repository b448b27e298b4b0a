/**
 * The pushes a channel target waits for: every address twice, or the window's end. Shared by the
 * channel targets, their shrinking and their replay.
 */
import { isNotification, pushOf, type WsConn } from '../connection';
import type { SeenPush } from './invariants';

export const WINDOW_MS = 3000;

/** Wait until every address has two pushes, or the window ends; the pushes seen. */
export async function collect(conn: WsConn, from: number, addresses: string[]): Promise<SeenPush[]> {
  const until = Date.now() + WINDOW_MS;
  const count = () => {
    const seen = conn.frames
      .slice(from)
      .filter((f) => isNotification(f.json))
      .map(pushOf);
    return { seen, done: addresses.every((a) => seen.filter((p) => p.channel === a).length >= 2) };
  };
  while (!count().done && Date.now() < until)
    await conn.waitFor((f) => isNotification(f.json), Math.max(1, until - Date.now()), conn.frames.length);
  return count()
    .seen.filter((p) => p.channel !== undefined)
    .map((p) => ({ channel: p.channel!, data: p.data, t: p.frame.t }));
}
