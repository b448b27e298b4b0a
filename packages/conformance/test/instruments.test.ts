/**
 * The live instruments as the runner learns them (src/instruments.ts): names from the live list, details
 * from the records, by type when the spec lists them so, else one lookup per name for the first few. The
 * server here is a table of answers; what was asked is recorded.
 */
import { describe, expect, it } from 'vitest';
import { BY_TYPE_METHOD, liveInstruments, LIVE_METHOD, MAX_LOOKUPS, ONE_METHOD } from '../src/instruments';

const record = (instrument_name: string, instrument_type: string) => ({
  instrument_name,
  instrument_type,
  base_currency: instrument_name.split('-')[0],
  tick_size: '0.1',
  amount_step: '0.01',
  is_active: true,
});

function server(names: unknown, records: ReturnType<typeof record>[]) {
  const asked: string[] = [];
  const ask = async (method: string, params: Record<string, unknown>) => {
    asked.push(`${method} ${JSON.stringify(params)}`);
    if (method === LIVE_METHOD) return names;
    if (method === BY_TYPE_METHOD)
      return { instruments: records.filter((r) => r.instrument_type === params.instrument_type), pagination: {} };
    return records.find((r) => r.instrument_name === params.instrument_name);
  };
  return { ask, asked };
}

describe('the live instruments the runner knows', () => {
  it('names from the live list, details from the list by type; a name without a record stays a name', async () => {
    const s = server(
      ['ETH-PERP', 42, 'ETH-20261231-3000-C', 'NEW-1'],
      [record('ETH-PERP', 'perp'), record('ETH-20261231-3000-C', 'option'), record('OLD-PERP', 'perp')],
    );
    const got = await liveInstruments(s.ask, () => true, ['erc20', 'option', 'perp']);
    expect(got).toEqual([
      {
        instrument_name: 'ETH-PERP',
        instrument_type: 'perp',
        base_currency: 'ETH',
        tick_size: '0.1',
        amount_step: '0.01',
      },
      {
        instrument_name: 'ETH-20261231-3000-C',
        instrument_type: 'option',
        base_currency: 'ETH',
        tick_size: '0.1',
        amount_step: '0.01',
      },
      { instrument_name: 'NEW-1' },
    ]);
    expect(s.asked).toEqual([
      `${LIVE_METHOD} {}`,
      `${BY_TYPE_METHOD} {"instrument_type":"erc20"}`,
      `${BY_TYPE_METHOD} {"instrument_type":"option"}`,
      `${BY_TYPE_METHOD} {"instrument_type":"perp"}`,
    ]);
  });

  it('without the list by type: one lookup per name, for the first few names only', async () => {
    const names = Array.from({ length: MAX_LOOKUPS + 3 }, (_, i) => `X${i}-PERP`);
    const s = server(
      names,
      names.map((n) => record(n, 'perp')),
    );
    const got = await liveInstruments(s.ask, (m) => m !== BY_TYPE_METHOD, ['perp']);
    expect(got.filter((i) => i.instrument_type === 'perp')).toHaveLength(MAX_LOOKUPS);
    expect(got.map((i) => i.instrument_name)).toEqual(names);
    expect(s.asked.filter((a) => a.startsWith(ONE_METHOD))).toHaveLength(MAX_LOOKUPS);
  });

  it('an empty or malformed list: no instrument, and no record is asked', async () => {
    for (const names of [[], null, { instruments: [] }]) {
      const s = server(names, [record('ETH-PERP', 'perp')]);
      expect(await liveInstruments(s.ask, () => true, ['perp'])).toEqual([]);
      expect(s.asked).toEqual([`${LIVE_METHOD} {}`]);
    }
  });
});
