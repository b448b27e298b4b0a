import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { start } from './helpers';

/** Open a WebSocket as a page of `origin` would (undefined: as a program, with no Origin): its outcome. */
function open(
  url: string,
  origin?: string,
): Promise<{ opened: true; ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.once('open', () => resolve({ opened: true, ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

const close = (o: Awaited<ReturnType<typeof open>>) => ('ws' in o ? o.ws.close() : undefined);

describe('which web pages may open the WebSocket', () => {
  it(
    "by default: programs, this machine's pages and local files; another site's " + 'page gets 403 and holds no slot',
    async () => {
      const sb = await start();
      try {
        for (const page of ['http://evil.example', 'https://evil.example:8443', 'null']) {
          const refused = await open(sb.wsUrl, page);
          expect(refused).toMatchObject({ status: 403 });
          expect(JSON.parse((refused as { body: string }).body).error).toContain(`Origin ${JSON.stringify(page)}`);
        }
        // Refused pages hold none of the four per-IP slots: four connections still open.
        const admitted = [
          await open(sb.wsUrl),
          await open(sb.wsUrl, 'http://localhost:5173'),
          await open(sb.wsUrl, 'http://127.0.0.1:8080'),
          await open(sb.wsUrl, 'file://'),
        ];
        for (const a of admitted) expect(a).toMatchObject({ opened: true });
        admitted.forEach(close);
      } finally {
        await sb.close();
      }
    },
  );

  it('allowedOrigins replaces the default: exact origins, or * for any page', async () => {
    const listed = await start({ allowedOrigins: ['https://app.example'] });
    const any = await start({ allowedOrigins: ['*'] });
    try {
      const app = await open(listed.wsUrl, 'https://app.example');
      expect(app).toMatchObject({ opened: true });
      close(app);
      expect(await open(listed.wsUrl, 'http://localhost:5173')).toMatchObject({ status: 403 });
      const program = await open(listed.wsUrl);
      expect(program).toMatchObject({ opened: true });
      close(program);
      const evil = await open(any.wsUrl, 'http://evil.example');
      expect(evil).toMatchObject({ opened: true });
      close(evil);
    } finally {
      await listed.close();
      await any.close();
    }
  });
});
