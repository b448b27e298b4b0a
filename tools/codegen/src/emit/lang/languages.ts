/**
 * The languages `generate --lang` offers besides TypeScript, and how a `--lang` value is read.
 * Only targets whose output was compiled and round-tripped here are offered (see docs/generating.md,
 * "Languages"): quicktype's other targets need third-party libraries (Jackson, serde, Newtonsoft,
 * Klaxon) that no registry reachable here provides.
 */

/** A language the models can be written in: its folder under `--out` and its one file there. */
export interface LanguageTarget {
  /** The `--lang` value and the folder name, e.g. `python`. */
  id: string;
  /** quicktype's name for the target. */
  quicktype: string;
  /** The file written into `<out>/<id>/`. */
  file: string;
}

export const LANGUAGES: readonly LanguageTarget[] = [
  { id: 'python', quicktype: 'python', file: 'models.py' },
  { id: 'go', quicktype: 'go', file: 'models.go' },
];

/** TypeScript is always written; naming it in `--lang` is allowed and changes nothing. */
const ALWAYS = 'typescript';

/** A `--lang` value that names no offered language. */
export class UnknownLanguage extends Error {}

/**
 * The languages asked for by repeated or comma-separated `--lang` values, each once, in the order of
 * LANGUAGES (so that the header line's regenerate command, and with it the drift check, does not
 * depend on how the flag was spelled). Throws UnknownLanguage with one line naming the value and the
 * languages offered.
 */
export function parseLanguages(values: readonly string[]): LanguageTarget[] {
  const chosen: LanguageTarget[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const id = raw.trim().toLowerCase();
    if (id === '') throw new UnknownLanguage('--lang needs a language name (got an empty value)');
    if (id === ALWAYS || id === 'ts') continue;
    const target = LANGUAGES.find((l) => l.id === id);
    if (!target)
      throw new UnknownLanguage(
        `--lang ${raw.trim()} is not offered; choose from ${[ALWAYS, ...LANGUAGES.map((l) => l.id)].join(', ')}`,
      );
    if (!chosen.includes(target)) chosen.push(target);
  }
  return LANGUAGES.filter((l) => chosen.includes(l));
}

/** The `--lang` flag that asks for these languages again (for a header line or a fix hint), or ''. */
export function langFlag(targets: readonly LanguageTarget[]): string {
  return targets.length > 0 ? ` --lang ${targets.map((l) => l.id).join(',')}` : '';
}
