/**
 * Python's integer enumerations. They reach quicktype as string enumerations of marked values
 * (int-enums.ts); each class whose cases are all marked becomes an IntEnum of the integers:
 * `Level(5)` raises ValueError as for a string enum, and `Level.VALUE_1 == 1`.
 */
import { patch, PatchFailed } from '../patch';
import { unmarked } from './int-enums';
import { quicktypeStringValue } from './quicktype-run';

const CASE = /^ {4}(\w+) = "((?:[^"\\\n]|\\.)*)"$/;

/** The line after a class's docstring (quicktype writes one for a schema's description), or `from`. */
function afterDocstring(lines: string[], from: number): number {
  const first = lines[from] ?? '';
  if (!first.startsWith('    """')) return from;
  // One line (`"""text"""`), or up to the line that closes it; the text cannot close it (escape.ts).
  if (first.length > 10 && first.endsWith('"""')) return from + 1;
  let at = from + 1;
  while (at < lines.length && !lines[at]!.endsWith('"""')) at++;
  return at + 1;
}

/** The case lines of the class declared at `head`: their indexes, names and values. */
function casesOf(lines: string[], head: number): Array<{ at: number; name: string; value: string }> {
  const cases: Array<{ at: number; name: string; value: string }> = [];
  let start = afterDocstring(lines, head + 1);
  // A blank line may part the docstring from the cases.
  while (start > head + 1 && lines[start] === '') start++;
  for (let at = start; at < lines.length; at++) {
    const m = CASE.exec(lines[at]!);
    if (!m) break;
    cases.push({ at, name: m[1]!, value: quicktypeStringValue(m[2]!) });
  }
  return cases;
}

/** quicktype's Python with every enumeration of marked values an IntEnum of its integers. */
export function integerEnums(text: string): string {
  const lines = text.split('\n');
  const integer: string[] = [];
  lines.forEach((line, head) => {
    const name = /^class (\w+)\(Enum\):$/.exec(line)?.[1];
    if (!name) return;
    const cases = casesOf(lines, head);
    if (cases.length === 0)
      throw new PatchFailed(
        `the python (quicktype) emitter could not read the cases of the enum ${name}` +
          ` (quicktype writes them otherwise now; python-enums.ts needs updating)`,
      );
    const numbers = cases.map((c) => unmarked(c.value));
    if (!numbers.every((n) => n !== null)) return;
    integer.push(name);
    lines[head] = `class ${name}(IntEnum):`;
    cases.forEach((c, i) => (lines[c.at] = `    ${c.name} = ${numbers[i]}`));
  });
  let out = lines.join('\n');
  if (integer.length === 0) return out;
  // An IntEnum takes an int (mypy): a record's key, read as Any or None, is cast (the class still checks it).
  for (const name of integer)
    out = out.replace(
      new RegExp(`\\b${name}\\(obj\\.get\\(("(?:[^"\\\\\\n]|\\\\.)*")\\)\\)`, 'g'),
      `${name}(cast(int, obj.get($1)))`,
    );
  return patch(out, 'from enum import Enum\n', 'from enum import Enum, IntEnum\n', {
    emitter: 'python (quicktype)',
    what: 'import IntEnum',
  });
}
