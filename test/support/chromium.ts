/**
 * Which headless Chromium the tests run, in this order: CHROMIUM_PATH (yours to choose), a system
 * Chromium or Chrome, else the Chromium shipped inside the @sparticuz/chromium npm package (Linux x64,
 * unpacked to the temporary folder on first use), so `npm ci && npm test` needs no apt step.
 */
import { existsSync } from 'node:fs';

/** System browsers tried after CHROMIUM_PATH, in this order. */
export const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** Flags for a quiet headless run on a CI machine (no sandbox: CI runs as root in a container). */
const QUIET_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface FoundBrowser {
  executablePath: string;
  args: string[];
  /** Where it came from, for the log line and the README's promise. */
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/**
 * Flags @sparticuz/chromium sets for serverless hosts that break a test browser here: in one process,
 * Chromium dies when a second browser context opens ("Target page, context or browser has been closed").
 */
const SERVERLESS_ONLY = ['--single-process'];

/** The Chromium inside the @sparticuz/chromium package, with the flags it needs. */
export async function packagedBrowser(): Promise<FoundBrowser> {
  const { default: packaged } = await import('@sparticuz/chromium');
  return {
    executablePath: await packaged.executablePath(),
    args: [...new Set([...packaged.args.filter((a) => !SERVERLESS_ONLY.includes(a)), ...QUIET_ARGS])],
    source: '@sparticuz/chromium',
  };
}

/**
 * The browser to launch (see the module comment for the order); a CHROMIUM_PATH that does not exist is an
 * error, not skipped.
 */
export async function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  systemBrowsers = SYSTEM_BROWSERS,
): Promise<FoundBrowser> {
  const given = env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given))
      throw new Error(`CHROMIUM_PATH=${given} does not exist (unset it to use a system Chromium or the packaged one)`);
    return { executablePath: given, args: QUIET_ARGS, source: 'CHROMIUM_PATH' };
  }
  const system = systemBrowsers.find((p) => existsSync(p));
  if (system) return { executablePath: system, args: QUIET_ARGS, source: 'system' };
  return packagedBrowser();
}
