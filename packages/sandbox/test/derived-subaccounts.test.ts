import { describe, expect, it } from 'vitest';
import { Client, newWallet, start } from './helpers';
import { derivedSubaccounts } from '../src/index';

describe('derived subaccount ids', () => {
  it('a wallet whose derived ids another wallet holds gets the next free pair, never none', async () => {
    const late = newWallet();
    const holder = newWallet();
    // The configured holder has exactly the ids the late wallet would derive: the collision, made sure.
    const sb = await start({ wallets: [{ address: holder.address, subaccounts: derivedSubaccounts(late.address) }] });
    try {
      const c = await Client.connect(sb.wsUrl);
      const ids = await c.login(late);
      expect(ids).toHaveLength(2);
      expect(ids).toEqual(derivedSubaccounts(late.address, 1));
      expect(ids.some((id) => derivedSubaccounts(late.address).includes(id))).toBe(false);
      // Stable: the same wallet logs in again on another connection and gets the same pair.
      const again = await Client.connect(sb.wsUrl);
      expect(await again.login(late)).toEqual(ids);
      const theirs = await (await Client.connect(sb.wsUrl)).login(holder);
      expect(theirs).toEqual(derivedSubaccounts(late.address));
    } finally {
      await sb.close();
    }
  });
});
