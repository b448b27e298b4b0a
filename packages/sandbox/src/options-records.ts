/**
 * The records of the sandbox's options: limit overrides, session keys, wallets and instruments (the
 * entries of `--config`'s lists), apart from the options that hold them (options.ts).
 */
/** A limit override; which keys apply depends on the limit's kind in limitTable. */
export type LimitOverride = Partial<{
  points: number;
  windowMs: number;
  max: number;
  refillPerSecond: number;
  capacity: number;
  maxBytes: number;
}>;

/** A session key registered for a wallet (registration is not shown in the document: it comes from config). */
export interface SessionKeyConfig {
  address: string;
  wallet: string;
  /** Milliseconds since the epoch (sandbox clock) after which the key no longer logs in. */
  expiresAtMs?: number;
  /**
   * Empty or absent: full authority. Otherwise `read` (private channels and reads) and/or `trade` (order flow); `*`
   * grants both.
   */
  scopes?: string[];
  /** Empty or absent: any IP. Otherwise the request IP must be one of these. */
  ipWhitelist?: string[];
  /** Empty or absent: every subaccount of the wallet. */
  subaccounts?: number[];
}

/** A wallet with fixed subaccount ids (wallets not listed get two derived ids on first login). */
export interface WalletConfig {
  address: string;
  subaccounts: number[];
}

/** An instrument of the simulated market. */
export interface InstrumentConfig {
  instrument_name: string;
  instrument_type: 'perp' | 'option' | 'erc20';
  base_currency: string;
  quote_currency?: string;
  tick_size?: string;
  amount_step?: string;
  /** Starting mid price. */
  price?: number;
}
