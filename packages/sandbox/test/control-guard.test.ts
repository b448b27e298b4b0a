import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { refuseControl } from '../src/control-guard';

// The guard reads a request's peer, Host and headers: a request as Node hands it over, reduced to those.
const request = (remoteAddress: string, host: string) =>
  ({
    method: 'GET',
    headers: { host },
    socket: { remoteAddress, localAddress: '0.0.0.0' },
  }) as unknown as IncomingMessage;

describe('the control plane answers only loopback peers', () => {
  it('refuses a peer on the network, even when its Host header names 127.0.0.1 (--host 0.0.0.0)', () => {
    for (const peer of ['192.0.2.10', '::ffff:198.51.100.4', '2001:db8::1']) {
      expect(refuseControl(request(peer, '127.0.0.1:8080'), '0.0.0.0')).toEqual({
        status: 403,
        body: { error: expect.stringMatching(/answers only this machine .*came from/) },
      });
    }
  });

  it('serves loopback peers, IPv4, IPv4-mapped and IPv6', () => {
    for (const peer of ['127.0.0.1', '::ffff:127.0.0.1', '::1', '127.8.9.10'])
      expect(refuseControl(request(peer, 'localhost:8080'), '0.0.0.0')).toBeNull();
  });
});
