/**
 * Cancel on disconnect (private/set_cancel_on_disconnect): once a wallet turns it on, the moment its
 * last logged-in WebSocket connection closes (for any reason: a close, a drop, a missed heartbeat),
 * every open order on the book of its subaccounts is cancelled with cancel_reason
 * `cancel_on_disconnect`, and so is every open RFQ and quote of them (a signed quote would stay
 * executable otherwise). Trigger orders waiting off the book are left waiting: they are the stops
 * that protect a position while its owner is away. HTTP requests hold no connection, so they neither
 * keep nor end one. In a fleet the setting is every member's, and the member where the last
 * connection closed says so to the others (a shared record): each member that holds no connection of
 * the wallet cancels its orders on the books it owns.
 */
import type { Connection } from '../connection';
import type { HandlerParts } from '../handler-parts';
import { ownWallet } from '../handlers-reads';
import type { Handler } from '../pipeline';

/** The shared record saying a wallet's last connection on a member closed. */
const DISCONNECTED = 'disconnected';

/** The handler, and the watch on the connections that it arms. */
export function cancelOnDisconnectHandlers({
  accounts,
  clock,
  connections,
  market,
}: HandlerParts): Record<string, Handler> {
  const connected = (wallet: string, but?: Connection) =>
    connections.select().some((c) => c !== but && c.session?.wallet === wallet);
  // The orders open when the connection closed (`at`, the sandbox clock), never one placed after: a
  // member that hears of it late, or reads the record again each cycle, leaves a reconnected wallet's
  // new orders alone; each record is applied once.
  const cancel = (wallet: string, at: number) => {
    for (const sub of accounts.subaccountsOf(wallet)) {
      market.cancelWhere(sub, (o) => o.creation_timestamp <= at, 'cancel_on_disconnect');
      market.rfq.cancelAllOf(sub, 'cancel_on_disconnect');
    }
  };
  const applied = new Map<string, number>();
  accounts.shared.on(DISCONNECTED, (wallet, at) => {
    if (typeof at !== 'number' || applied.get(wallet) === at) return;
    applied.set(wallet, at);
    // A wallet this member never saw has no orders here (and gets no account by the news).
    if (accounts.knows(wallet) && accounts.cancelsOnDisconnect(wallet) && !connected(wallet)) cancel(wallet, at);
  });
  const previous = connections.closed;
  connections.closed = (conn: Connection) => {
    previous?.(conn);
    const wallet = conn.session?.wallet;
    if (!wallet || !accounts.cancelsOnDisconnect(wallet) || connected(wallet, conn)) return;
    const at = clock.now();
    applied.set(wallet, at);
    cancel(wallet, at);
    accounts.shared.put(DISCONNECTED, wallet, at);
  };
  return {
    'private/set_cancel_on_disconnect': (ctx, p: { enabled?: boolean | null; wallet?: string | null }) => {
      const wallet = p.wallet == null ? ctx.session!.wallet : ownWallet(ctx, p.wallet).wallet;
      // Absent or null asks for no change, and none is made.
      if (p.enabled != null) accounts.setCancelOnDisconnect(wallet, p.enabled);
      return 'ok';
    },
  };
}
