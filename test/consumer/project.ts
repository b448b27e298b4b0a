/**
 * A consumer project outside the repository: every publishable package packed with `npm pack`
 * (PACK_WORKSPACES; each `prepack` builds), then only those tarballs installed into an empty
 * folder under the system's temporary directory, as a user installing from npm would.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verdictSlot } from '../../tools/codegen/src/load/parse-cache';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

/** Every package a user can install, by name → its folder in the repository. */
export const PUBLISHABLE: Readonly<Record<string, string>> = {
  '@exchange-api/types': 'packages/types',
  '@exchange-api/validators': 'packages/validators',
  '@exchange-api/auth': 'packages/auth',
  '@exchange-api/client': 'packages/client',
  '@exchange-api/sandbox': 'packages/sandbox',
  '@exchange-api/conformance': 'packages/conformance',
  '@exchange-api/mock': 'packages/mock',
  '@exchange-api/cli': 'packages/cli',
  '@exchange-api/docs': 'packages/docs',
  '@exchange-api/codegen': 'tools/codegen',
};

/**
 * The workspaces `npm pack` is given: the folders of the publishable packages. Not --workspaces, which
 * packs the private ones too (tools/bench): npm pack does not skip a package marked private.
 */
export const PACK_WORKSPACES = ['--workspace', 'packages', '--workspace', 'tools/codegen'];

/** Tools the consumer installs from the registry next to our tarballs, pinned to the repository's versions. */
const CONSUMER_TOOLS = ['typescript@5.9.3', '@types/node@20.19.9', 'esbuild@0.28.2'];

/**
 * The environment of a consumer's shell: none of the repository's development settings (a source
 * export condition in NODE_OPTIONS, npm's per-run settings of `npm test`) may reach the consumer.
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // EXCHANGE_API_PARSE_CACHE too: a case holds that the installed parser keeps its verdict, as it does by default.
    const ours = k === 'NODE_OPTIONS' || k === 'INIT_CWD' || k === 'TSX' || k === 'EXCHANGE_API_PARSE_CACHE';
    if (ours || k.startsWith('npm_') || k.startsWith('VITEST')) continue;
    env[k] = v;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

/** Run a command to its end (bounded); the output is kept for the assertion message. */
export function run(cmd: string, args: string[], cwd: string, timeoutMs = 240_000): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd,
    env: consumerEnv(),
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** One line that says how a command ended and what it printed, for an assertion's message. */
export function describeRun(what: string, r: SpawnSyncReturns<string>): string {
  const how = r.error
    ? `failed to run (${r.error.message})`
    : `exit ${r.status}${r.signal ? ` signal ${r.signal}` : ''}`;
  return `${what}: ${how}\n--- stdout\n${r.stdout ?? ''}\n--- stderr\n${r.stderr ?? ''}`;
}

export interface Consumer {
  /** The consumer project's folder (outside the repository). */
  dir: string;
  /** The packed tarballs, by package name. */
  tarballs: Record<string, string>;
  /** Remove the folder this module made (and only it). */
  remove(): void;
}

/** Pack every publishable package into `dest`; returns the tarballs by name. */
export function packAll(dest: string): Record<string, string> {
  const r = spawnSync('npm', ['pack', ...PACK_WORKSPACES, '--pack-destination', dest, '--silent'], {
    cwd: repoRoot,
    env: { ...consumerEnv(), TURBO_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    timeout: 480_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(describeRun(`npm pack ${PACK_WORKSPACES.join(' ')}`, r));
  const files = readdirSync(dest).filter((f) => f.endsWith('.tgz'));
  const tarballs: Record<string, string> = {};
  for (const name of Object.keys(PUBLISHABLE)) {
    const file = files.find((f) => f.startsWith(`${name.slice(1).replace('/', '-')}-`));
    if (!file) throw new Error(`npm pack made no tarball for ${name} (made: ${files.join(', ')})`);
    tarballs[name] = join(dest, file);
  }
  return tarballs;
}

/**
 * Make the consumer: pack, then install the tarballs (and nothing of the repository) into a new
 * folder; `extraTarballs` (generated SDK packages, sdk.ts) go into the same install.
 */
export function makeConsumer(extraTarballs: string[] = []): Consumer {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-api-consumer-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const packs = join(dir, 'tarballs');
    mkdirSync(packs);
    const tarballs = packAll(packs);
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2),
    );
    cpSync(fixtures, app, { recursive: true });
    // One typed consumer, checked under each module setting (node16 ESM and CommonJS, bundler).
    for (const copy of ['node16/consumer.mts', 'node16/consumer.cts', 'bundler/consumer.ts'])
      cpSync(join(fixtures, 'typed-consumer.ts'), join(app, copy));
    const install = run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        ...Object.values(tarballs),
        ...extraTarballs,
        ...CONSUMER_TOOLS,
      ],
      app,
      480_000,
    );
    if (install.status !== 0) throw new Error(describeRun('npm install (tarballs)', install));
    return { dir: app, tarballs, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

/** The consumer's parser verdicts: the cache folder beside its installed parser (tools/codegen's parse-cache.ts). */
export const consumerVerdicts = (dir: string) => join(dir, 'node_modules', '.cache', 'exchange-api', 'parser');

/**
 * Give the consumer the parser's verdict on our spec, as the repository's run of the same parser
 * version (pinned) on the same text left it: the verdict's key is the text and the parser's version,
 * not the folder. A fresh parse of our spec costs about 13 s of CPU and proves nothing the repository's
 * parse does not; the installed parser itself parses the plain spec there (its own case).
 */
export function seedOwnSpecVerdict(dir: string): void {
  const text = readFileSync(join(repoRoot, 'spec', 'asyncapi.yaml'), 'utf8');
  const diagnostics = verdictSlot(text)?.read();
  if (diagnostics) verdictSlot(text, consumerVerdicts(dir))?.write(diagnostics);
}
