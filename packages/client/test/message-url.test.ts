/**
 * The URL of a channel of an API that speaks its own messages (issue 33, "URLs"): the user's URL keeps
 * its pathname, the channel's address is appended as a path, parameters filled in (encoded), the `ws`
 * bindings' query added; a missing parameter and a URL that is none are usage errors.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors';
import { channelUrl } from '../src/messages/wire-url';

const at = (address: string | null, parameters: string[] = []) => ({ address, parameters });

describe('channelUrl', () => {
  it('appends the address to the pathname: /ws + /test, /raw + /, the root + /, none', () => {
    expect(channelUrl('wss://h.example/ws', 'c', at('/test'))).toBe('wss://h.example/ws/test');
    expect(channelUrl('ws://127.0.0.1:9/raw', 'c', at('/'))).toBe('ws://127.0.0.1:9/raw/');
    expect(channelUrl('ws://127.0.0.1:9', 'c', at('/'))).toBe('ws://127.0.0.1:9/');
    expect(channelUrl('ws://127.0.0.1:9/raw', 'c', at(null))).toBe('ws://127.0.0.1:9/raw');
    expect(channelUrl('ws://127.0.0.1:9/a/', 'c', at('b'))).toBe('ws://127.0.0.1:9/a/b');
  });

  it('fills parameters (encoded) and adds the query, keeping what the URL had', () => {
    const url = channelUrl(
      'ws://h/v?k=1',
      'm',
      at('/v1/marketdata/{symbol}', ['symbol']),
      { symbol: 'a b/c' },
      {
        heartbeat: true,
        depth: 10,
        name: 'x',
        skipped: undefined,
      },
    );
    expect(url).toBe('ws://h/v/v1/marketdata/a%20b%2Fc?k=1&heartbeat=true&depth=10&name=x');
  });

  it('a missing parameter and a URL that is none are usage errors naming them', () => {
    expect(() => channelUrl('ws://h', 'market', at('/m/{symbol}', ['symbol']))).toThrow(
      new UsageError('channel market: the address parameter symbol is missing (options.params)'),
    );
    expect(() => channelUrl('not a url', 'c', at('/'))).toThrow(UsageError);
  });
});
