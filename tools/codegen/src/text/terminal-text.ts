/**
 * Text for a terminal, with its control characters shown instead of obeyed. The command line prints
 * what a spec, a server or a cache says (titles, names, descriptions, parser messages), and to a
 * terminal a control character is an instruction, not text: `ESC [1A ESC [2K` erases the line above so
 * that a forged "0 breaking" can be drawn over it, `ESC ] 0;… BEL` retitles the window, a line break
 * starts a line the spec wrote. Every line the command line prints from such text goes through
 * {@link terminalText}; the Markdown, HTML and JSON writers escape for their own formats.
 *
 * The rule is the conformance console's (packages/conformance/src/reporters/visible.ts, which cannot
 * import the generator); a test holds the two equal for every code point of the Basic Multilingual Plane.
 */

// C0, DEL and C1 (ESC, CSI, OSC, BEL, CR, LF among them), and the bidirectional marks, overrides and
// isolates, which reorder a line on terminals that honour them. Control characters are what it finds:
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as one inert line: every control character written as its escape (`\x1b`, `\u009b`, `\n`,
 * `\u202e`), everything else as it is.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return SHORT[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
  });
}

/** Several lines of text (the lines of a report): each line through {@link terminalText}, the line breaks kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}
