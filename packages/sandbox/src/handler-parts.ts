/** The parts the method handlers act on: one place, so the read and the write handlers share it. */
import type { Accounts } from './accounts';
import type { ActionVerifier } from './actions';
import type { ConnectionRegistry } from './connection';
import type { ChannelAccess } from './access';
import type { Slots } from './admission';
import type { Limits } from './limits';
import type { Market } from './market';
import type { Clock } from './clock';
import type { SubscriptionIndex } from './subscriptions';

/** The parts the handlers act on. */
export interface HandlerParts {
  accounts: Accounts;
  access: ChannelAccess;
  admission: Slots;
  index: SubscriptionIndex;
  limits: Limits;
  market: Market;
  clock: Clock;
  /** The action signatures of the signed methods a handler checks itself (transfers, withdrawals, keys). */
  actions: ActionVerifier;
  /** The open WebSocket connections (cancel on disconnect watches them close). */
  connections: ConnectionRegistry;
}
