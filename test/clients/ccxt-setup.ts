/**
 * ccxt 4.5.84's `derive` class pointed at a fresh sandbox with nothing patched: only its URLs change
 * (setSandboxMode(true) picks the testnet signing constants the sandbox accepts by default;
 * loadHttpProxyAgent() is what ccxt asks for before a ws:// URL).
 */
import ccxt from 'ccxt';
import { Wallet, type HDNodeWallet } from 'ethers';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { roomyLimits } from '../client/helpers';

export const SUBACCOUNT = 130837;
export const PERP = 'ETH/USDC:USDC';
export type Derive = InstanceType<typeof ccxt.pro.derive>;

export interface CcxtAgainstSandbox {
  sb: Sandbox;
  exchange: Derive;
  wallet: HDNodeWallet;
  close(): Promise<void>;
}

/** Start a sandbox (extra options merged in) and a ccxt.pro derive logged in as a wallet it knows. */
export async function ccxtAgainstSandbox(extra: Record<string, unknown> = {}): Promise<CcxtAgainstSandbox> {
  const wallet = Wallet.createRandom();
  // ccxt logs in only when the wallet has a subaccount; it must know the id beforehand (options.subaccount_id).
  const sb = await startSandbox({
    port: 0,
    control: true,
    limits: roomyLimits,
    market: { intervalMs: 50 },
    wallets: [{ address: wallet.address, subaccounts: [SUBACCOUNT] }],
    ...extra,
  });
  const exchange = new ccxt.pro.derive({
    walletAddress: wallet.address,
    privateKey: wallet.privateKey,
    options: { deriveWalletAddress: wallet.address, subaccount_id: SUBACCOUNT },
  });
  exchange.setSandboxMode(true);
  exchange.urls['api'] = { public: `${sb.httpUrl}/v3/public`, private: `${sb.httpUrl}/v3/private`, ws: sb.wsUrl };
  await exchange.loadHttpProxyAgent();
  return {
    sb,
    exchange,
    wallet,
    close: async () => {
      await exchange.close();
      await sb.close();
    },
  };
}

/** A price of the perp, rounded to its tick as ccxt signs it. */
export const priceOf = (exchange: Derive, x: number) => Number(exchange.priceToPrecision(PERP, x));
