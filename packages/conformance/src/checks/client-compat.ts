/**
 * What the public clients of the interface send that the document's framing does not require: ccxt and
 * derive-ts send WebSocket requests without `jsonrpc` (the request-jsonrpc assumption), and derive-ts
 * matches a reply only when its id is the number it sent. A server that refuses them breaks those
 * clients, though the document's "jsonrpc (2.0)" allows it to: a SHOULD.
 */
import { cut } from '@exchange-api/validators';
import { isResponse, silenceOf, type RpcResponse } from '../connection';
import type { Check } from '../context';
import { S, errorOf, method, FINDING_MAX } from './util';

export const clientCompatChecks: Check[] = [
  {
    id: 'framing.no-jsonrpc',
    title: 'A request without jsonrpc is answered, its numeric id echoed as a number (ccxt, derive-ts)',
    section: `${S.framing} (requests require id, method and params)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const conn = await ctx.connect();
      const sent = JSON.stringify({ id: 4242, method: method('publicGetRateLimits'), params: {} });
      await ctx.run.pacer.take();
      ctx.throwIfStopped();
      const from = conn.frames.length;
      conn.send(sent);
      const frame = await conn.waitFor((f) => isResponse(f.json), 5000, from);
      if (!frame)
        return ctx.fail({
          rule: 'the public clients send requests without jsonrpc (the request-jsonrpc assumption)',
          expected: 'a response with id 4242',
          got: silenceOf(conn, from, 5000, sent),
          message: 'a request without jsonrpc got no answer: ccxt and derive-ts would hang on every call',
        });
      const r = frame.json as RpcResponse;
      if (errorOf(r))
        return ctx.fail({
          pointer: '/error',
          rule: 'the public clients send requests without jsonrpc (the request-jsonrpc assumption)',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'a request without jsonrpc was refused: ccxt and derive-ts could not call this server',
        });
      if (r.id !== 4242)
        ctx.fail({
          pointer: '/id',
          rule: 'derive-ts matches a reply only when its id is the number it sent',
          expected: '4242 (number)',
          got: `${JSON.stringify(r.id)} (${typeof r.id})`,
          message: 'the numeric id did not come back as the same number',
        });
    },
  },
];
