import { describe, expect, it } from 'vitest';
import type { Signer } from 'ethers';
import { Client, newWallet, signed, start, quietMarket } from './helpers';

// A quiet market (no ticks during the test); an order below the book rests.
const quiet = quietMarket;
const buyBelow = {
  instrument_name: 'TEST-PERP',
  order_type: 'limit',
  max_fee: '1',
  amount: '1',
  direction: 'buy',
  limit_price: '90',
};

describe("a session key's limits apply to the key that signs an action, whoever logged in", () => {
  it('read-only, another subaccount, another IP: refused (14004); a trading key signs', async () => {
    const w = newWallet();
    const [readOnly, elsewhere, farIp, trading] = [newWallet(), newWallet(), newWallet(), newWallet()];
    const keys = [
      { address: readOnly.address, wallet: w.address, scopes: ['read'] },
      { address: elsewhere.address, wallet: w.address, subaccounts: [424242] },
      { address: farIp.address, wallet: w.address, ipWhitelist: ['203.0.113.7'] },
      { address: trading.address, wallet: w.address, scopes: ['trade'] },
    ];
    const sb = await start({ ...quiet, sessionKeys: keys });
    try {
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const by = async (signer: Signer) =>
        c.request(
          'private/order',
          await signed(signer, 'private/order', { ...buyBelow, subaccount_id: sub! }, { owner: w.address }),
        );
      expect((await by(readOnly)).error).toMatchObject({
        code: 14004,
        data: expect.stringMatching(/lacks the trade scope/),
      });
      expect((await by(elsewhere)).error).toMatchObject({
        code: 14004,
        data: expect.stringMatching(`may not act for subaccount ${sub}`),
      });
      expect((await by(farIp)).error).toMatchObject({ code: 14004, data: expect.stringMatching(/whitelist/) });
      expect((await by(trading)).result.order.order_status).toBe('open');
    } finally {
      await sb.close();
    }
  });
});
