/**
 * `npm run extract -w @exchange-api/evidence -- --derive-ts <checkout> [--ccxt <dir>] [--out <dir>]`
 * (or `--derive-ts-git <git dir> --rev <rev>` for a repository without a work tree): reads the public
 * clients and writes their facts as sorted JSON, `derive-ts-<version>.json` and `ccxt-<version>.json`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GENERATED_FILE, readDeriveTs } from './derive-ts';
import { readDeriveTsSdk } from './derive-ts-sdk';
import { readCcxt } from './ccxt';
import { writeEvidence } from './json-out';
import { REPO_ROOT } from './paths';

interface Args {
  deriveTs?: string;
  gitDir?: string;
  rev: string;
  ccxt: string;
  out: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    rev: 'HEAD',
    ccxt: join(REPO_ROOT, 'node_modules', 'ccxt'),
    out: join(REPO_ROOT, 'spec', 'evidence'),
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag}: a value is needed`);
    if (flag === '--derive-ts') args.deriveTs = resolve(value);
    else if (flag === '--derive-ts-git') args.gitDir = resolve(value);
    else if (flag === '--rev') args.rev = value;
    else if (flag === '--ccxt') args.ccxt = resolve(value);
    else if (flag === '--out') args.out = resolve(value);
    else throw new Error(`unknown option ${flag} (--derive-ts, --derive-ts-git, --rev, --ccxt, --out)`);
  }
  if (!args.deriveTs === !args.gitDir)
    throw new Error('give one of --derive-ts <checkout> or --derive-ts-git <git dir>');
  return args;
}

/** A file of derive-ts: from the checkout, or `git show <rev>:<path>` in its git directory. */
function deriveTsFile(args: Args, path: string): string {
  if (args.deriveTs) return readFileSync(join(args.deriveTs, path), 'utf8');
  return execFileSync('git', ['--git-dir', args.gitDir!, 'show', `${args.rev}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

const API_DIR = 'src/api';

/** The SDK's api files (`marketData.ts`, …), but its shared context. */
function apiFiles(args: Args): string[] {
  const names = args.deriveTs
    ? readdirSync(join(args.deriveTs, API_DIR))
    : execFileSync('git', ['--git-dir', args.gitDir!, 'ls-tree', '--name-only', `${args.rev}:${API_DIR}`], {
        encoding: 'utf8',
      }).split('\n');
  return names.filter((n) => n.endsWith('.ts') && n !== 'context.ts').sort();
}

function commitOf(args: Args): string | null {
  const dir = args.gitDir ?? join(args.deriveTs!, '.git');
  try {
    return execFileSync('git', ['--git-dir', dir, 'rev-parse', args.gitDir ? args.rev : 'HEAD'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return null; // a checkout without its history: the version alone names it
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const version = (JSON.parse(deriveTsFile(args, 'package.json')) as { version: string }).version;
  const derive = readDeriveTs(deriveTsFile(args, GENERATED_FILE), version, commitOf(args));
  derive.sdk = readDeriveTsSdk(
    Object.fromEntries(apiFiles(args).map((f) => [f.replace(/\.ts$/, ''), deriveTsFile(args, `${API_DIR}/${f}`)])),
  );
  const ccxtVersion = (JSON.parse(readFileSync(join(args.ccxt, 'package.json'), 'utf8')) as { version: string })
    .version;
  const mod = (await import(pathToFileURL(join(args.ccxt, 'js', 'src', 'derive.js')).href)) as {
    default: new () => { describe(): { api: Record<string, Record<string, Record<string, unknown>>> } };
  };
  const ccxt = readCcxt(
    ccxtVersion,
    new mod.default().describe().api,
    readFileSync(join(args.ccxt, 'js', 'src', 'derive.js'), 'utf8'),
    readFileSync(join(args.ccxt, 'js', 'src', 'pro', 'derive.js'), 'utf8'),
  );
  for (const [name, data] of [
    [`derive-ts-${version}.json`, derive],
    [`ccxt-${ccxtVersion}.json`, ccxt],
  ] as const) {
    const file = join(args.out, name);
    const changed = writeEvidence(file, data);
    console.log(`${changed ? 'wrote' : 'unchanged'} ${file}`);
  }
  console.log(
    `derive-ts ${version}: ${Object.keys(derive.methods).length} methods, ` +
      `${Object.keys(derive.channels).length} channels, ${Object.keys(derive.records).length} records; ` +
      `ccxt ${ccxtVersion}: ${Object.keys(ccxt.listed).length} listed, ` +
      `${ccxt.called.rest.length} called over REST, ${ccxt.called.ws.length} over WebSocket`,
  );
}

main().catch((e: unknown) => {
  console.error(`extract: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
