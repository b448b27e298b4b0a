/** Choosing checks by id pattern. */

/** The area of a check id: the part before the first dot. */
export function areaOf(id: string): string {
  return id.split('.')[0]!;
}

function glob(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/**
 * Whether a check id matches any pattern. A pattern is an id, a glob with `*`, or a prefix ending at a
 * dot boundary (`login` matches `login.wallet`); patterns may be comma-separated.
 */
export function matches(id: string, patterns: readonly string[]): boolean {
  return patterns
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => (p.includes('*') ? glob(p).test(id) : id === p || id.startsWith(`${p}.`)));
}
