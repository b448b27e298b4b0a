/** Semantics beyond schemas: order book order, depth, grid and publish_id; ticker cadence; decimal digits. */
import { matchChannel } from '@exchange-api/types';
import type { Check, Ctx } from '../context';
import type { Push } from '../connection';
import { S } from './util';
import { publicSamples, pushesOf } from './samples';
import { privateSamples } from './private-samples';
import { DECIMAL_DIGITS, decimalToUnits } from '@exchange-api/types/decimal';

type Book = { bids?: unknown; asks?: unknown; publish_id?: unknown; instrument_name?: unknown };

async function books(ctx: Ctx): Promise<Push[]> {
  const samples = await publicSamples(ctx);
  if (samples.unavailable) ctx.skip(samples.unavailable);
  const pushes = pushesOf(samples, 'orderbook');
  if (pushes.length === 0) ctx.inconclusive(`no order book was pushed within ${samples.windowMs} ms`);
  return pushes;
}

/** Levels of one side as [price units, index], skipping malformed ones (the payload check reports those). */
function prices(side: unknown): { price: bigint; raw: string; i: number }[] {
  if (!Array.isArray(side)) return [];
  return side.flatMap((l, i) => {
    const raw = Array.isArray(l) ? String(l[0]) : '';
    const price = decimalToUnits(raw, DECIMAL_DIGITS);
    return price === null ? [] : [{ price, raw, i }];
  });
}

function blame(ctx: Ctx, p: Push): void {
  ctx.transcript.attach([p.frame.entry]);
}

/** Decimal-looking strings (digits, a point, digits) anywhere in a value, with their JSON pointers. */
function decimals(value: unknown, pointer: string, out: { pointer: string; value: string }[]): void {
  if (typeof value === 'string') {
    if (/^-?[0-9]+\.[0-9]+$/.test(value)) out.push({ pointer, value });
  } else if (Array.isArray(value)) value.forEach((v, i) => decimals(v, `${pointer}/${i}`, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value))
      decimals(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
}

export const semanticChecks: Check[] = [
  {
    id: 'orderbook.sorted',
    title: 'Order book bids are strictly descending and asks strictly ascending by price (one level per price)',
    section: `${S.orderbook}; ${S.events} (orderbook group: price aggregation size, so one level per price)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      for (const p of await books(ctx)) {
        const d = p.data as Book;
        for (const [side, desc] of [
          ['bids', true],
          ['asks', false],
        ] as const) {
          const ps = prices(d?.[side]);
          for (let k = 1; k < ps.length; k++) {
            // Levels are aggregated by price, so equal neighbours are a departure as much as a wrong order.
            const ok = desc ? ps[k]!.price < ps[k - 1]!.price : ps[k]!.price > ps[k - 1]!.price;
            if (!ok) {
              blame(ctx, p);
              const same = ps[k]!.price === ps[k - 1]!.price;
              ctx.fail({
                pointer: `/params/data/${side}/${ps[k]!.i}/0`,
                rule: `${side} strictly ${desc ? 'descending' : 'ascending'} (one level per price)`,
                expected: `${desc ? '<' : '>'} ${ps[k - 1]!.raw}`,
                got: ps[k]!.raw,
                message:
                  `${p.channel}: ${side} ${same ? `repeat the price ${ps[k]!.raw}` : 'out of order'}` +
                  ` at level ${ps[k]!.i}`,
              });
              break;
            }
          }
        }
        if (ctx.findings.length >= 6) break;
      }
    },
  },
  {
    id: 'orderbook.depth',
    title: 'Each side has at most depth levels',
    section: `${S.events} (orderbook depth: levels per side); ${S.orderbook}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      for (const p of await books(ctx)) {
        const depth = Number(matchChannel(p.channel ?? '')?.params.depth);
        const d = p.data as Book;
        for (const side of ['bids', 'asks'] as const) {
          const n = Array.isArray(d?.[side]) ? (d[side] as unknown[]).length : 0;
          if (Number.isFinite(depth) && n > depth) {
            blame(ctx, p);
            ctx.fail({
              pointer: `/params/data/${side}`,
              rule: 'at most depth levels per side',
              expected: `≤ ${depth} levels`,
              got: `${n} levels`,
              message: `${p.channel}: ${n} ${side}`,
            });
          }
        }
        if (ctx.findings.length >= 6) break;
      }
    },
  },
  {
    id: 'orderbook.grid',
    title: 'Order book prices lie on the group’s grid (multiples of group × tick size)',
    section: `${S.events} (orderbook group: price aggregation size)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const pushes = await books(ctx);
      let checked = 0;
      for (const p of pushes) {
        const m = matchChannel(p.channel ?? '');
        const inst = ctx.env.instruments.find((i) => i.instrument_name === m?.params.instrument_name);
        const tick = inst?.tick_size ? decimalToUnits(inst.tick_size, DECIMAL_DIGITS) : null;
        if (!m || !tick || tick <= 0n) continue;
        const grid = tick * BigInt(m.params.group ?? '1');
        checked++;
        const d = p.data as Book;
        for (const side of ['bids', 'asks'] as const) {
          const off = prices(d?.[side]).find((x) => x.price % grid !== 0n);
          if (off) {
            blame(ctx, p);
            ctx.fail({
              pointer: `/params/data/${side}/${off.i}/0`,
              rule: `prices are multiples of group ${m.params.group} × tick ${inst!.tick_size}`,
              expected: `a multiple of ${Number(grid) / 1e12}`,
              got: off.raw,
              message: `${p.channel}: ${side} price ${off.raw} is off the grid`,
            });
          }
        }
        if (ctx.findings.length >= 6) break;
      }
      if (checked === 0)
        ctx.skip(
          'no tick_size known for the sampled instruments ' +
            '(their records: public/get_all_instruments, public/get_instrument)',
        );
    },
  },
  {
    id: 'orderbook.publish-id',
    title: 'publish_id increases from one order book push to the next',
    section: `${S.orderbook} (publish_id)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const pushes = await books(ctx);
      const last = new Map<string, { id: number; p: Push }>();
      for (const p of pushes) {
        const id = (p.data as Book)?.publish_id;
        if (typeof id !== 'number' || !p.channel) continue;
        const prev = last.get(p.channel);
        if (prev && id <= prev.id) {
          blame(ctx, prev.p);
          blame(ctx, p);
          ctx.fail({
            pointer: '/params/data/publish_id',
            rule: 'publish_id increases',
            expected: `> ${prev.id}`,
            got: String(id),
            message: `${p.channel}: publish_id went from ${prev.id} to ${id}`,
          });
        }
        last.set(p.channel, { id, p });
      }
      if ([...last.values()].length === 0) ctx.inconclusive('no publish_id to compare');
    },
  },
  {
    id: 'ticker.cadence',
    title: 'ticker_slim pushes arrive close to the interval named in the address',
    section: `${S.events} (ticker_slim interval: update cadence in milliseconds)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const samples = await publicSamples(ctx);
      if (samples.unavailable) ctx.skip(samples.unavailable);
      const byAddress = new Map<string, Push[]>();
      for (const p of pushesOf(samples, 'tickerSlim'))
        byAddress.set(p.channel!, [...(byAddress.get(p.channel!) ?? []), p]);
      let measured = 0;
      for (const [address, ps] of byAddress) {
        const interval = Number(matchChannel(address)?.params.interval);
        if (ps.length < 3 || !Number.isFinite(interval)) continue;
        const gaps = ps
          .slice(1)
          .map((p, i) => p.frame.t - ps[i]!.frame.t)
          .sort((a, b) => a - b);
        const median = gaps[Math.floor(gaps.length / 2)]!;
        measured++;
        // Loose bounds: loaded machines and networks jitter; a wrong cadence is off by a factor, not a few ms.
        if (median < interval * 0.5 || median > interval * 1.5 + 50) {
          ctx.transcript.attach(ps.slice(0, 4).map((p) => p.frame.entry));
          ctx.fail({
            rule: 'cadence close to the interval',
            expected: `median gap within 0.5–1.5 × ${interval} ms`,
            got: `${median} ms over ${gaps.length} gaps`,
            message: `${address}: median gap ${median} ms`,
          });
        }
      }
      if (measured === 0) ctx.inconclusive(`fewer than 3 ticker pushes per address within ${samples.windowMs} ms`);
    },
  },
  {
    id: 'semantics.decimal-digits',
    title: 'Decimal strings carry at most 12 fractional digits',
    section: `${S.conventions} (decimal)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const samples = await publicSamples(ctx);
      if (samples.unavailable) ctx.skip(samples.unavailable);
      const all = [...samples.pushes];
      if (ctx.options.key) all.push(...(await privateSamples(ctx)).pushes);
      if (all.length === 0) ctx.inconclusive('nothing was pushed to inspect');
      for (const p of all) {
        const found: { pointer: string; value: string }[] = [];
        decimals(p.data, '/params/data', found);
        for (const f of found.filter((x) => x.value.split('.')[1]!.length > 12).slice(0, 2)) {
          blame(ctx, p);
          ctx.fail({
            pointer: f.pointer,
            rule: 'decimal: up to 12 fractional digits',
            expected: '≤ 12 fractional digits',
            got: `${f.value} (${f.value.split('.')[1]!.length})`,
            message: `${p.channel}: ${f.value} has ${f.value.split('.')[1]!.length} fractional digits`,
          });
        }
        if (ctx.findings.length >= 6) break;
      }
    },
  },
];
