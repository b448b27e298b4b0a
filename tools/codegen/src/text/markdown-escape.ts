/**
 * Spec text in Markdown. A spec's names, values, titles and paths reach the Markdown we write (the
 * docs' `md/` pages, an SDK's README, `diff --report markdown:`), and a renderer that allows HTML runs
 * what reaches it raw: an enum value `<img src=x onerror=…>` in a code span that a backtick closed
 * early, an `x-http-path` with a line of three backticks ending its code fence. Every Markdown writer
 * puts spec text through these helpers only, each safe for its place by construction.
 */

/** Line breaks of any kind (CommonMark's, and the Unicode separators a renderer may take for one). */
const BREAKS = /\r\n?|[\n\u2028\u2029]/g;

/** Text on one line: every run of white space (line breaks included) one space. */
const oneLine = (s: string) => s.replace(BREAKS, ' ').replace(/\s+/g, ' ');

/**
 * The ASCII punctuation that means something inline anywhere in a line: escapes, code, emphasis,
 * links, raw HTML and autolinks, strikethrough; `_` but between two letters or digits (where it
 * never emphasises: `subaccount_id` stays as written), `!` before a link (an image) and `&` that starts
 * an entity. Each is backslash-escaped (CommonMark lets any ASCII punctuation be), so it reads as itself.
 * `|` is left to {@link mdCell}: escaped twice it would end a table cell.
 */
const INLINE = /[\\`*[\]<>~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|!(?=\[)|&(?=#?\w+;)/g;

/**
 * What starts a block at the beginning of a line: a heading, a list item (bullet or ordered), a rule
 * or a setext underline, each followed by white space or the end (a quote's `>` is escaped anyway).
 */
const BLOCK_START = /^(\s*)([#+\-=]|\d+[.)])(?=\s|$)/;

/**
 * Spec text as Markdown text, on one line: it renders as exactly these characters, never as markup
 * or HTML.
 */
export function mdText(text: string): string {
  return oneLine(text)
    .replace(INLINE, '\\$&')
    .replace(BLOCK_START, (_, lead: string, mark: string) => `${lead}${mark.replace(/[#+\-=.)]/, '\\$&')}`);
}

/** The longest run of backticks in `text` (0 when none). */
function longestBackticks(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/**
 * A code span of `text`, on one line: its fence one backtick longer than any run inside, padded with
 * a space where the text starts or ends with a backtick or a space (CommonMark strips one of each).
 */
export function mdCodeSpan(text: string): string {
  const flat = oneLine(text);
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestBackticks(flat) + 1);
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A fenced code block of `text`: its fence longer than any backtick run inside (three at least), so no
 * line of the text can end it; `lang` kept to the characters of a language name.
 */
export function mdCodeFence(text: string, lang = ''): string {
  const body = text.replace(/\r\n?/g, '\n');
  const fence = '`'.repeat(Math.max(3, longestBackticks(body) + 1));
  return `${fence}${lang.replace(/[^\w+.-]/g, '')}\n${body}\n${fence}`;
}

/**
 * A table cell of rendered Markdown inline (already escaped by the helpers above): on one line, every
 * `|` escaped (GFM splits cells on a pipe even inside a code span), never empty.
 */
export function mdCell(markdown: string): string {
  return oneLine(markdown).replace(/\|/g, '\\|').trim() || ' ';
}

/**
 * Prose from the spec (a description, which AsyncAPI writes in CommonMark) kept as Markdown, without
 * raw HTML: every `<` that could open a tag, a comment or an autolink is written as an entity.
 */
export function mdProse(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/** An HTML attribute value (an anchor id in Markdown): the characters that could leave it spelt as entities. */
export function mdAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
