// Whether `npm test` and what it spawns print colour. A log written to a file or read by CI is text:
// colour codes there are noise (vitest colours even into a pipe; so does any tool FORCE_COLOR reaches).
// The rule of no-color.org, and CI's: plain when stdout is not a terminal, or NO_COLOR or CI is set.

/** Whether a value of an environment variable counts as set (`CI=false` and `CI=0` do not). */
const isSet = (value) => value !== undefined && value !== '' && value !== '0' && value !== 'false';

/** Whether the output is to be plain (no colour codes). */
export function plainOutput(env = process.env, isTTY = process.stdout.isTTY === true) {
  return !isTTY || isSet(env.NO_COLOR) || isSet(env.CI);
}

/**
 * The environment for the children of a plain run: NO_COLOR (vitest's tinyrainbow, picocolors, turbo)
 * and FORCE_COLOR=0 (chalk and supports-color, which eslint, prettier and dependency-cruiser use, read
 * no NO_COLOR); turbo passes both to its tasks (envMode loose, turbo.json).
 */
export function plainEnv(env) {
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** The no-colour flag of each tool `npm test` runs, for a plain run (belt and braces with plainEnv). */
export const NO_COLOR_FLAGS = {
  turbo: ['--no-color'],
  eslint: ['--no-color'],
  prettier: ['--no-color'],
  tsc: ['--pretty', 'false'],
};
