/**
 * The name of a generated SDK package: one npm accepts for a new package (the rules `npm init` and
 * `npm publish` apply, as validate-npm-package-name states them), so the SDK packs and publishes as
 * named. An explicit name npm refuses is an error; a name derived from info.title is made safe.
 */
import { builtinModules } from 'node:module';
import type { ApiModel } from './model/types';

/** Lower-case letters, digits, - . _ (not first); optionally @scope/. npm refuses ~'!()* in new names. */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** Names npm reserves, whatever they look like. */
const RESERVED = new Set(['node_modules', 'favicon.ico']);

/** Node's own modules: npm refuses a package of the same name (require would never load it). */
const CORE = new Set(builtinModules);

/** Why npm refuses `name` for a new package, as the end of a sentence, or null when it accepts it. */
function refusal(name: string): string | null {
  if (name.length > 214) return "is longer than npm's 214 characters";
  if (RESERVED.has(name.toLowerCase())) return 'is a name npm reserves';
  if (/^[._]/.test(name)) return 'is not an npm package name: it cannot start with . or _';
  if (name !== name.toLowerCase()) return 'is not an npm package name: a new package name is lower case';
  if (!PACKAGE_NAME.test(name))
    return 'is not an npm package name (lower case letters, digits, - . _; optionally @scope/)';
  if (CORE.has(name)) return 'is the name of a Node core module';
  return null;
}

/** Why a package name is not one npm accepts for a new package (one line), or null when it is. */
export function packageNameProblem(name: string): string | null {
  const why = refusal(name);
  if (why === null) return null;
  const shown = `--name ${JSON.stringify(name)} ${why}`;
  return RESERVED.has(name.toLowerCase()) || CORE.has(name)
    ? `${shown}, which npm refuses; choose another (e.g. ${name.replace(/\W/g, '-')}-sdk or @your-scope/${name})`
    : shown;
}

/**
 * The package name derived from a spec's title (`Weather Station Network` → `weather-station-network`)
 * and, when npm would refuse that (a title `fs` or `HTTP`), a safe one with the note that says so.
 */
export function derivePackageName(title: string): { name: string; note: string | null } {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 200) || 'api-sdk';
  const why = refusal(slug);
  if (why === null) return { name: slug, note: null };
  const name = refusal(`${slug}-sdk`) === null ? `${slug}-sdk` : 'api-sdk';
  return {
    name,
    note:
      `note: the package name ${JSON.stringify(slug)} derived from info.title ${why}` +
      `, which npm refuses: the package is named ${JSON.stringify(name)} (pass ` +
      `--name to choose another)`,
  };
}

/** The package name derived from the spec's title, made safe as derivePackageName says. */
export function packageNameOf(model: Pick<ApiModel, 'title'>): string {
  return derivePackageName(model.title).name;
}
