/**
 * Any API's error table (x-errors) read one way: which kind a code is, the rate-limit error's retry
 * hint, the connection-limit entry. The client classifies the errors of the API it is given with it,
 * so another spec's codes mean what that spec says; errors.ts applies it to this interface's table.
 */

/** An error entry as the readers need it (the generated errorTable's entries fit). */
export interface ErrorTableEntry {
  readonly code: number;
  readonly message: string;
  /** A stable UPPER_SNAKE name for programs. */
  readonly name?: string;
  /** rate-limit, connection-limit, request, auth, order or server (spec/README.md, `x-errors`). */
  readonly kind?: string;
  /** The `data` of a rate-limit error, with `<ms>` where the wait goes. */
  readonly data?: string;
  readonly dataPattern?: string;
  /** The text frame a connection-limit refusal starts with. */
  readonly textFramePrefix?: string;
}

/** An error table: reserved ranges and the codes. */
export interface ErrorTableLike {
  readonly reserved?: ReadonlyArray<{ readonly from: number; readonly to: number }>;
  readonly codes: ReadonlyArray<ErrorTableEntry>;
}

/** The reads of one error table. */
export interface ErrorCodes {
  /** The entry with this code, or undefined for a code the table does not list. */
  byCode(code: number): ErrorTableEntry | undefined;
  /**
   * The rate-limit entry a code belongs to: its own entry when that is of kind rate-limit, else the
   * first rate-limit entry inside a reserved range that holds the code; undefined otherwise.
   */
  rateLimitEntry(code: number): ErrorTableEntry | undefined;
  /** The first entry of kind connection-limit, or undefined when the API has none. */
  readonly connectionLimit: ErrorTableEntry | undefined;
  /**
   * The wait in ms a rate-limit error's `data` asks for, read with its entry's template; null when not of that form.
   */
  retryAfterMs(code: number, data: string | null | undefined): number | null;
}

/** Where the wait goes in a rate-limit entry's `data` template. */
export const RETRY_PLACEHOLDER = '<ms>';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The reader of a `data` template: null when it has no placeholder (the hint then says no wait a program can read). */
function hintReader(entry: ErrorTableEntry): ((data: string) => number | null) | null {
  const template = entry.data;
  if (template === undefined || !template.includes(RETRY_PLACEHOLDER)) return null;
  const regex = new RegExp(`^${template.split(RETRY_PLACEHOLDER).map(escape).join('([0-9]+)')}$`);
  // The template gives where the number is; the documented pattern, when present, is the form a hint must have.
  const documented = entry.dataPattern === undefined ? null : patternOf(entry);
  return (data) => {
    if (documented && !documented.test(data)) return null;
    const m = regex.exec(data);
    return m ? Number(m[1]) : null;
  };
}

/** A rate-limit entry's documented pattern; throws naming the entry when it is not a regular expression. */
function patternOf(entry: ErrorTableEntry): RegExp {
  try {
    return new RegExp(entry.dataPattern!);
  } catch (err) {
    throw new Error(
      `error ${entry.code}: dataPattern ${JSON.stringify(entry.dataPattern)} is ` +
        `not a regular expression (${(err as Error).message})`,
      { cause: err },
    );
  }
}

/**
 * The reads of `table`; no table (a spec without x-errors) makes no code special. Throws an Error
 * naming the entry when a rate-limit entry's `dataPattern` is not a regular expression.
 */
export function errorCodes(table: ErrorTableLike | null | undefined): ErrorCodes {
  const codes = table?.codes ?? [];
  const byCode = new Map<number, ErrorTableEntry>();
  for (const c of codes) if (!byCode.has(c.code)) byCode.set(c.code, c);
  const rateLimits = codes.filter((c) => c.kind === 'rate-limit');
  const ranges = (table?.reserved ?? []).flatMap((r) => {
    const entry = rateLimits.find((c) => c.code >= r.from && c.code <= r.to);
    return entry ? [{ from: r.from, to: r.to, entry }] : [];
  });
  const readers = new Map(rateLimits.map((c) => [c, hintReader(c)]));
  const rateLimitEntry = (code: number): ErrorTableEntry | undefined => {
    const own = byCode.get(code);
    if (own) return own.kind === 'rate-limit' ? own : undefined;
    return ranges.find((r) => code >= r.from && code <= r.to)?.entry;
  };
  return {
    byCode: (code) => byCode.get(code),
    rateLimitEntry,
    connectionLimit: codes.find((c) => c.kind === 'connection-limit'),
    retryAfterMs(code, data) {
      const entry = rateLimitEntry(code);
      const read = entry && readers.get(entry);
      return read && typeof data === 'string' ? read(data) : null;
    },
  };
}
