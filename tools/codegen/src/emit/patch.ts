/**
 * Patches to the output of another generator (quicktype, json-schema-to-typescript). Each names what
 * it is for and must find what it patches: a new version of that generator that writes something else
 * stops generation with a message naming the emitter and the patch, rather than leaving the output
 * unpatched (and wrong) without a word.
 */

/** A patch that found nothing to patch in another generator's output. */
export class PatchFailed extends Error {}

/** Where a patch is made and why, for the message when it finds nothing. */
export interface PatchSite {
  /** The emitter and the generator whose output it patches, e.g. `python (quicktype)`. */
  emitter: string;
  /** What the patch is for, e.g. `type from_union for mypy --strict`. */
  what: string;
  /**
   * A patch of a part the generator writes only for some specs (a helper written only when a type
   * needs it): text without `when` has nothing to patch and is returned as it is; text with it must match.
   */
  when?: string | RegExp;
}

type Replacement = string | ((match: string, ...groups: string[]) => string);

/**
 * `text` with `pattern` replaced (every match for a global RegExp, the first otherwise, as
 * String.replace). Throws PatchFailed when the pattern matches nothing (unless `site.when` is absent).
 */
export function patch(text: string, pattern: string | RegExp, replacement: Replacement, site: PatchSite): string {
  if (site.when !== undefined && !holds(text, site.when)) return text;
  if (!holds(text, pattern)) {
    const shown = typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern);
    throw new PatchFailed(
      `the ${site.emitter} emitter could not ${site.what}: ${shown} matched nothing ` +
        `in the generated output (the generator it patches writes something else ` +
        `now; its patch needs updating)`,
    );
  }
  return text.replace(pattern, replacement as (substring: string, ...args: unknown[]) => string);
}

/** Whether `text` holds `pattern` (a RegExp's lastIndex left as it was). */
function holds(text: string, pattern: string | RegExp): boolean {
  if (typeof pattern === 'string') return text.includes(pattern);
  return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test(text);
}
