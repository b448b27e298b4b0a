/** Runs the command line as a user does: the built command in a fresh process (test/support/cli.ts). */
export { cli, repoRoot as root } from '../../../test/support/cli';
