/**
 * The pages as a small document tree. One tree renders to both HTML and Markdown, so the two outputs
 * cannot drift apart in content.
 */

/** A place in the site: a page path without extension (`channels/orderbook`) and an optional anchor. */
export interface Ref {
  page: string;
  anchor?: string;
}

/** Tones of a small label: access, kind and the two markers. */
export type Tone = 'public' | 'private' | 'kind' | 'not-shown' | 'assumption';

export type Inline =
  | string
  | { code: string }
  | { link: Ref; text: Inline[] }
  | { strong: Inline[] }
  /** Monospace text that may hold links, e.g. a type expression. */
  | { mono: Inline[] }
  | { tag: string; tone: Tone };

export interface Row {
  /** Anchor of the row (a field, an error code, a limit). */
  id?: string;
  cells: Inline[][];
}

export type Block =
  | { kind: 'h'; level: 1 | 2 | 3; id?: string; text: Inline[]; tags?: Inline[] }
  /** `names`: a list of names (links to them), set in monospace by style rather than code spans. */
  | { kind: 'p'; text: Inline[]; names?: boolean }
  | { kind: 'note'; tone: 'not-shown' | 'assumption' | 'info'; text: Inline[] }
  /**
   * `mono`: how many leading columns hold names only, set in monospace as a whole; `monoLast`: the last column too
   * (constraints).
   */
  | { kind: 'table'; head: string[]; rows: Row[]; mono?: number; monoLast?: boolean }
  | { kind: 'facts'; rows: Array<[string, Inline[]]> }
  /** `id`: the anchor of an example, on its figure. */
  | { kind: 'code'; text: string; caption?: Inline[]; id?: string }
  | { kind: 'list'; items: Array<{ id?: string; text: Inline[] }>; chips?: boolean };

/** Which entry of the navigation a page belongs to. */
export type NavKey = string;

export interface Page {
  /** Path without extension, relative to the site root, e.g. `channels/orderbook`. */
  path: string;
  title: string;
  nav: NavKey;
  blocks: Block[];
}

/** Text from the spec: white space collapsed, `backticks` become code. */
export function rich(text: string): Inline[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const out: Inline[] = [];
  flat.split('`').forEach((part, i) => {
    if (part === '') return;
    out.push(i % 2 === 1 ? { code: part } : part);
  });
  return out;
}

export const code = (s: string): Inline => ({ code: s });
export const link = (ref: Ref, ...text: Inline[]): Inline => ({ link: ref, text });
export const tag = (text: string, tone: Tone): Inline => ({ tag: text, tone });

/** Joins inline lists with a separator, e.g. a comma-separated list of links. */
export function joined(items: Inline[][], sep: Inline = ', '): Inline[] {
  return items.flatMap((it, i) => (i === 0 ? it : [sep, ...it]));
}

/**
 * An integer as the spec writes it, where the parsed number lost its last digits (beyond 2^53): put in
 * a value in place of the rounded number (constraints.ts, `markExact`), printed by `toJson` as written.
 */
export class Exact {
  constructor(readonly text: string) {}
}

/**
 * JSON.stringify, with every `Exact` written as its text (a NUL-led string in between: JSON writes NUL as
 * `\u0000`).
 */
export function toJson(value: unknown): string {
  const json = JSON.stringify(value, (_k, v: unknown) => (v instanceof Exact ? `\u0000${v.text}` : v)) ?? 'null';
  return json.includes('\\u0000') ? json.replace(/"\\u0000(-?[0-9]+)"/g, '$1') : json;
}

/** JSON laid out for reading: arrays and objects that fit stay on one line. */
export function prettyJson(value: unknown, indent = 0, lead = 0, width = 80): string {
  const flat = toJson(value);
  if (value === null || typeof value !== 'object' || value instanceof Exact || indent + lead + flat.length <= width)
    return flat;
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => pad + prettyJson(v, indent + 2, 0, width)).join(',\n')}\n${close}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const body = entries.map(([k, v]) => {
    const key = `${JSON.stringify(k)}: `;
    return pad + key + prettyJson(v, indent + 2, key.length, width);
  });
  return `{\n${body.join(',\n')}\n${close}}`;
}
