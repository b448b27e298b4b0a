/**
 * Spec text in generated code. A spec's titles, summaries, names and values reach comments and
 * string literals in TypeScript, Python and Go; every emitter writes them only through these
 * helpers, so that no text can end the comment or the literal it sits in and become code (a title
 * of star, star, slash, slash once did: removing the comment's closing pair once left one behind).
 */
import { DATA_KEYWORDS, SCHEMA_MAP } from '@exchange-api/types/json-schema-keywords';

/**
 * Characters no comment carries raw: the C0 and C1 controls but tab and line feed (carriage return
 * ends a line comment in JS and Python; Python and Go refuse NUL anywhere), DEL, the bidirectional
 * controls (they make a comment display as code) and U+FEFF (Go refuses a byte-order mark after the
 * start of a file).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** The other characters that end a line comment: line feed (every language), U+2028 and U+2029 (JS/TS). */
const LINE_BREAK = /[\n\u2028\u2029]/g;

/** A lone UTF-16 surrogate: it cannot be written as UTF-8 and no Go string can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The `\uXXXX` spelling of a UTF-16 code unit, as JS, Python and Go read it in a string literal. */
const hex4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text with the characters above spelt as visible escapes. */
const visible = (text: string) => text.replace(UNSAFE, hex4).replace(LONE_SURROGATE, hex4);

/**
 * Text inside a one-line comment of any kind we write (`//`, `#`, `/* *\/`, `<!-- -->`): line breaks
 * and unsafe characters spelt as escapes, a star before a slash parted from it by a backslash, and
 * the HTML comment's delimiters broken. For a header line, which quotes a path exactly.
 */
export function commentLine(text: string): string {
  return visible(text)
    .replace(LINE_BREAK, hex4)
    .replace(/\*\//g, '*\\/')
    .replace(/<!--/g, '<!- -')
    .replace(/--(!?)>/g, '- -$1>');
}

/**
 * Spec text in a TypeScript comment (`/** … *\/` or `//`), on one line: white space (line breaks
 * included) folded to one space, then as commentLine.
 */
export function tsComment(text: string): string {
  return commentLine(text.replace(/\s+/g, ' ').trim());
}

/**
 * Spec text that a comment writer of its own (json-schema-to-typescript, quicktype) splits into
 * comment lines: line breaks kept (as \n), a star before a slash parted from it by a backslash,
 * unsafe characters spelt as escapes.
 */
export function commentBlock(text: string): string {
  return visible(text.replace(/\r\n?|[\u2028\u2029]/g, '\n')).replace(/\*\//g, '*\\/');
}

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

/**
 * What a string literal of ours never holds raw: a lone surrogate, its quote, the backslash, line
 * breaks and every character UNSAFE names. Each is spelt as an escape, in one pass.
 */
const literalUnsafe = (quote: string) =>
  new RegExp(`${LONE_SURROGATE.source}|[\\\\${quote}\\n\\r\\u2028\\u2029${UNSAFE.source.slice(1, -1)}]`, 'g');
const TS_SINGLE = literalUnsafe("'");
const DOUBLE = literalUnsafe('"');
const TEMPLATE = literalUnsafe('`$');

/** A TypeScript/JavaScript string literal of `text`, single-quoted (as the generated code is written). */
export function tsString(text: string): string {
  return `'${text.replace(TS_SINGLE, (c) => SHORT[c] ?? (c === "'" ? "\\'" : hex4(c)))}'`;
}

/** The inside of a TypeScript template literal (value or type) that reads as `text`. */
export function tsTemplateText(text: string): string {
  return text.replace(TEMPLATE, (c) => SHORT[c] ?? (c === '`' || c === '$' ? '\\' + c : hex4(c)));
}

/** `name` as a property key or member name: bare when it is an identifier, otherwise a string literal. */
export function tsKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : tsString(name);
}

/** A Python string literal of `text`, double-quoted. */
export function pyString(text: string): string {
  return `"${text.replace(DOUBLE, (c) => SHORT[c] ?? (c === '"' ? '\\"' : hex4(c)))}"`;
}

/** A Go interpreted string literal of `text` (a lone surrogate, which no Go string holds, becomes U+FFFD). */
export function goString(text: string): string {
  const wellFormed = text.replace(LONE_SURROGATE, '\ufffd');
  return `"${wellFormed.replace(DOUBLE, (c) => SHORT[c] ?? (c === '"' ? '\\"' : hex4(c)))}"`;
}

/**
 * A copy of a schema for a code writer of its own (json-schema-to-typescript, quicktype) to read:
 * each `description` as commentBlock makes it, and without the keywords `drop` names (a writer's
 * extensions: json-schema-to-typescript writes a `tsType` into the code as given).
 */
export function schemaForWriter(schema: unknown, drop: (keyword: string, value: unknown) => boolean): unknown {
  const walk = (node: unknown, names: boolean): unknown => {
    if (Array.isArray(node)) return node.map((v) => walk(v, false));
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (names) out[k] = walk(v, false);
      else if (drop(k, v)) continue;
      else if (k === 'description' && typeof v === 'string') out[k] = commentBlock(v);
      else out[k] = DATA_KEYWORDS.has(k) ? v : walk(v, SCHEMA_MAP.has(k));
    }
    return out;
  };
  return walk(schema, false);
}
