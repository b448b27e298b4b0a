/**
 * The SDK of another API says and generates only what reaches that API (issue 23, items 26, 27, 29):
 * a Slack-like chat (an HTTPS server, events pushed on `/`, no method) and an MQTT API get no
 * `createClient`, and a README that says why; the weather stations (a WebSocket, one method, channels,
 * no `x-role`) get calls and streams, with JSON-RPC said to be assumed; a calls-only API gets no
 * `subscribe`. Every README installs from our packages' tarballs, packed into a folder it makes. Docs
 * of the chat have no Login, Errors or Limits page and none of the exchange's wording.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLKIT_VERSION, emitDocs, emitSdk, generateInto, modelFromSpec, type EmittedFile } from '../src/index';
import { miniSpec, ourModel, repoRoot, scratchDir, typecheck, writeSpec } from './helpers';
import { brokenLinks } from './docs-helpers';

const fixture = (name: string) => join(repoRoot, 'test', 'sdk', 'fixtures', `${name}.asyncapi.yaml`);
const mqtt = writeSpec(
  miniSpec(`servers:
  broker: { host: 'test.mosquitto.org:{port}', protocol: mqtt, variables: { port: { default: '1883' } } }
channels:
  lightMeasured:
    address: 'lights/{streetlightId}/measured'
    parameters: { streetlightId: { description: The light. } }
    messages:
      Measured: { payload: { type: object, properties: { lumens: { type: integer, minimum: 0 } } } }
operations:
  onLightMeasured:
    action: send
    channel: { $ref: '#/channels/lightMeasured' }
    messages: [{ $ref: '#/channels/lightMeasured/messages/Measured' }]`),
);

async function sdkOf(spec: string): Promise<Record<string, string>> {
  const sdk = await emitSdk(await modelFromSpec(spec), { docs: true, specName: 's.yaml', regenerate: 'r' });
  return Object.fromEntries(sdk.files.map((f: EmittedFile) => [f.path, f.content]));
}

describe('what of the client an SDK generates and claims, computed from its spec', () => {
  it('a chat whose server is HTTPS and which has no method: no createClient, and the README says why', async () => {
    const files = await sdkOf(fixture('chat'));
    const client = files['src/client.gen.ts']!;
    expect(client).toContain('export const apiTables');
    for (const member of ['function createClient', 'createApiClient', 'subscribe', 'stream(', 'call(', 'rpc'])
      expect(client, member).not.toContain(member);
    const readme = files['README.md']!;
    expect(readme).toContain(
      'Nothing of `@exchange-api/client` reaches this API: its channels would need ' +
        'a WebSocket server (`ws`, `wss`), and it names none; it has no method',
    );
    expect(readme).not.toMatch(/createClient\(|for every method|## Connect/);
    for (const f of ['README.md', 'src/client.gen.ts', 'src/channels.gen.ts'])
      expect(files[f], f).not.toMatch(/subaccount|wallet|ETH-PERP|orderbook|exchange's/i);
    // The channels' comments take their examples from the chat's own channels.
    expect(files['src/channels.gen.ts']).toMatch(/e\.g\. `PayloadOf<'[^']+'>`/);
    expect(files['src/channels.gen.ts']).toMatch(/e\.g\. `channels\.\w+\(/);
  });

  it('an MQTT API: the README names the protocol the client does not speak', async () => {
    const files = await sdkOf(mqtt);
    expect(files['src/client.gen.ts']).not.toContain('function createClient');
    expect(files['README.md']).toContain('its servers speak `mqtt`, not WebSocket or HTTP');
  });

  it('the weather stations: calls and streams, each said; JSON-RPC said to be assumed, not claimed', async () => {
    const files = await sdkOf(fixture('weather'));
    const readme = files['README.md']!;
    expect(readme).not.toContain('for every method');
    expect(readme).toContain('- **Calls** (`call`, `rpc.*`) for the method of this spec:');
    expect(readme).toContain('JSON-RPC 2.0 is assumed. A server that does not speak JSON-RPC 2.0 gets none of');
    expect(readme).toContain('## Connect, subscribe, call');
    for (const member of ['export function createClient', 'subscribe<A', 'stream<A', 'call<M', 'getStation:'])
      expect(files['src/client.gen.ts'], member).toContain(member);
    // The core is typed by this API's maps as its type parameters: no cast anywhere in the client.
    expect(files['src/client.gen.ts']).toContain('createApiClient<Methods, ApiChannels>(');
    expect(files['src/client.gen.ts']).not.toMatch(/ as (unknown|never|any)\b|as AnyCall/);
  });

  it(
    'a calls-only API (no channel) has call and rpc but no subscribe or stream; ' + 'each surface type-checks',
    async () => {
      const files = await sdkOf(fixture('metered'));
      expect(files['src/client.gen.ts']).toContain('call<M');
      expect(files['src/client.gen.ts']).not.toMatch(/subscribe|stream/);
      expect(files['src/client.gen.ts']).toContain('createApiClient<Methods, ChannelMap>(');
      expect(files['src/client.gen.ts']).not.toMatch(/ as (unknown|never|any)\b/);
      expect(files['README.md']).toContain('## Connect, call\n');
      for (const spec of [fixture('metered'), fixture('chat')]) {
        const out = scratchDir('reach-');
        await generateInto(spec, out, { check: false });
        const r = typecheck(join(out, 'src'));
        expect(r.status, r.output).toBe(0);
      }
    },
    120_000,
  );
});

describe("an SDK's install instructions work while our packages are unpublished", () => {
  it(
    'packs our workspaces into a folder it makes first, then installs those tarballs ' + '(names and version ours)',
    async () => {
      const readme = (await sdkOf(fixture('weather')))['README.md']!;
      expect(readme).toContain('E404 for `@exchange-api/client`');
      expect(readme).toContain(
        'mkdir -p "$T" && npm pack --workspace packages --workspace tools/codegen --pack-destination "$T"',
      );
      const tarballs = `$T/exchange-api-{client,validators,types,auth}-${TOOLKIT_VERSION}.tgz`;
      expect(readme).toContain(`npm install --no-save ${tarballs}`);
      expect(readme).toContain(`npm install <this folder>/weather-station-network-2.1.0.tgz ${tarballs}`);
      for (const name of ['client', 'validators', 'types', 'auth']) {
        const pkg = JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8'));
        expect([pkg.name, pkg.version, pkg.private]).toEqual([`@exchange-api/${name}`, TOOLKIT_VERSION, undefined]);
      }
    },
  );
});

describe('docs of another API: pages and wording from that spec', () => {
  it('the chat: no Login, Errors or Limits page, nothing links to one, no exchange wording', async () => {
    const files = emitDocs(await modelFromSpec(fixture('chat')));
    const paths = files.map((f) => f.path);
    for (const page of ['login', 'errors', 'limits', 'open'])
      expect(
        paths.filter((p) => p.endsWith(`${page}.html`) || p.endsWith(`${page}.md`)),
        page,
      ).toEqual([]);
    expect(brokenLinks(files, '.html')).toEqual([]);
    const text = files.map((f) => f.content).join('\n');
    expect(text).not.toMatch(/subaccount|wallet|ETH-PERP|orderbook/i);
    expect(files.find((f) => f.path === 'md/channels.md')!.content).toContain(
      "Public channels need no login; private ones need login and serve only the caller's own data.",
    );
  });

  it('our own spec keeps every page', async () => {
    const files = emitDocs(await ourModel());
    for (const page of ['login', 'errors', 'limits', 'open'])
      expect(files.some((f) => f.path === `${page}.html`)).toBe(true);
  });
});
