/**
 * Text for a terminal, with its control characters shown instead of obeyed. The console prints what a
 * server said (error messages, instrument and channel names, close reasons, property names in pointers),
 * and to a terminal a control character is an instruction, not text: `ESC [2K` and a carriage return
 * erase a FAIL line so that a forged PASS can be drawn over it, and `ESC ] 0;… BEL` retitles the window.
 * The HTML, JUnit and JSON reports escape for their own formats; this is the console's escaping.
 */

// C0, DEL and C1 (ESC, CSI, OSC, BEL, CR, LF among them), and the bidirectional overrides and isolates,
// which reorder a line on terminals that honour them. Control characters are what it is there to find:
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every control character written as its escape (`\x1b`, `\r`, `\u202e`), so it prints as one inert line.
 */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return SHORT[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
  });
}
