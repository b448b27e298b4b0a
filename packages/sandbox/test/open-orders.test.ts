import { describe, expect, it } from 'vitest';
import { OpenOrders } from '../src/market/book';
import type { Resting } from '../src/market/instrument';

const resting = (order_id: string, subaccount_id: number) => ({ order: { order_id, subaccount_id } }) as Resting;

describe('OpenOrders: by id and by subaccount', () => {
  it("lists a subaccount's own open orders, oldest first, and forgets deleted ones", () => {
    const open = new OpenOrders();
    const [a, b, c, d] = [resting('a', 1), resting('b', 2), resting('c', 1), resting('d', 1)];
    for (const r of [a, b, c, d]) open.add(r);
    expect(open.ofSubaccount(1)).toEqual([a, c, d]);
    expect(open.ofSubaccount(2)).toEqual([b]);
    open.delete('c');
    open.delete('b');
    open.delete('nope');
    expect(open.ofSubaccount(1)).toEqual([a, d]);
    expect(open.ofSubaccount(2)).toEqual([]);
    expect(open.ofSubaccount(3)).toEqual([]);
    expect([open.get('a'), open.get('b')]).toEqual([a, undefined]);
  });
});
