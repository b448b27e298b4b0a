/**
 * The ccxt bot of the README and of docs/sandbox.md runs as written (issue 32, item 20: it used
 * `address` and `privateKey` it never defined, and did not say that the sandbox's config must name the
 * bot's own wallet). Each page's two shell lines run as written but for the port (a free one) and the
 * config's path (this test's); then its bot runs with `node`, against that sandbox, to its end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = { ...process.env, SCARF_ANALYTICS: 'false', TURBO_TELEMETRY_DISABLED: '1' };

/** The first ```sh and the first ```js block after a page's heading of the bot. */
function botOf(file: string): { sh: string[]; js: string } {
  const text = readFileSync(join(root, file), 'utf8');
  const from = text.slice(text.indexOf('# Your existing bot against the sandbox'));
  const sh = /^```sh\n([\s\S]*?)^```/m.exec(from)![1]!.trim().split('\n');
  const js = /^```js\n([\s\S]*?)^```/m.exec(from)![1]!;
  return { sh, js };
}

let sandbox: ChildProcess | null = null;
afterEach(async () => {
  if (sandbox && sandbox.exitCode === null && sandbox.signalCode === null) {
    const gone = new Promise((r) => sandbox!.once('exit', r));
    sandbox.kill('SIGTERM');
    await gone;
  }
  sandbox = null;
});

/** Start the page's sandbox command (npx, as written) on a free port; resolves to that port once it listens. */
function startSandbox(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    sandbox = spawn('sh', ['-c', `exec ${command}`], { cwd: root, env });
    let out = '';
    const bound = setTimeout(() => reject(new Error(`${command}: no first line in 60 s: ${out}`)), 60_000);
    sandbox.stdout!.on('data', (d) => {
      out += d;
      const m = /^sandbox listening ws:\/\/127\.0\.0\.1:(\d+)\/v3\/ws/m.exec(out);
      if (m) {
        clearTimeout(bound);
        resolve(Number(m[1]));
      }
    });
    sandbox.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening: ${out}`)));
  });
}

describe.each(['README.md', 'docs/sandbox.md'])('the ccxt bot of %s', (file) => {
  it('runs as written against the sandbox its shell lines start: the bot’s wallet logs in', async () => {
    const { sh, js } = botOf(file);
    expect(js).not.toMatch(/\.\.\./); // a whole program, not an excerpt
    const dir = mkdtempSync(join(tmpdir(), 'readme-bot-'));
    const config = join(dir, 'bot-sandbox.json');
    const [echo, serve] = sh.map((l) => l.replaceAll('/tmp/bot-sandbox.json', config).replace(/\s+#.*$/, ''));
    expect(echo).toMatch(/^echo '.*' > /);
    const written = spawnSync('sh', ['-c', echo!], { encoding: 'utf8' });
    expect(written.status, written.stderr).toBe(0);
    // The config names the wallet the bot logs in with.
    const wallet = JSON.parse(readFileSync(config, 'utf8')).wallets[0].address as string;
    expect(js).toContain(`const address = '${wallet}';`);
    expect(serve).toMatch(/--port 8080/);
    const port = await startSandbox(serve!.replace('--port 8080', '--port 0'));
    // Inside the repository, where ccxt (a devDependency) is installed, as in a bot's own folder.
    const botDir = join(root, 'test-output', 'readme-bot');
    mkdirSync(botDir, { recursive: true });
    const bot = join(botDir, `${file.replace(/\W/g, '-')}.mjs`);
    writeFileSync(bot, js.replaceAll(':8080', `:${port}`));
    const r = spawnSync(process.execPath, [bot], { cwd: botDir, env, encoding: 'utf8', timeout: 90_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^ETH\/USDC:USDC \d+(\.\d+)? \d+(\.\d+)?$/m);
    expect(r.stdout).toMatch(/total: 1000000/);
  }, 180_000);
});
