/**
 * What the runner knows of the sandbox's instruments: public/get_all_live_instruments lists names only, so
 * each one's kind and tick size come from the instrument records. The grid check needs the tick sizes and
 * the orderbook samples a known instrument: both pass only when the records were read.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '@exchange-api/sandbox';
import { runConformance } from '@exchange-api/conformance';

describe('the instruments the runner discovers', () => {
  it('names from the live list, tick sizes from the records: the order book grid is checked', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const report = await runConformance({ ws: sandbox.wsUrl, http: sandbox.httpUrl, only: ['orderbook.grid'] });
      const grid = report.checks.find((c) => c.id === 'orderbook.grid')!;
      expect([grid.status, grid.reason ?? null]).toEqual(['pass', null]);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
