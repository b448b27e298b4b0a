/**
 * The built command as a user's shell runs it: the bin in a process of its own, its stdout and exit
 * codes. The rest of the contract runs main() in the test's process (contract.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../src/main';
import { cli } from './run-cli';

const names = Object.keys(commands);

describe('exchange-api, the built bin', () => {
  it('--help lists every subcommand; no command prints the same and exits 2', () => {
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    for (const n of names) expect(help.stdout).toMatch(new RegExp(`^  ${n}\\s`, 'm'));
    const none = cli([]);
    expect(none.status).toBe(2);
    expect(none.stdout).toContain('Usage: exchange-api <command>');
  });
});
