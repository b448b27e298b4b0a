/**
 * Go enumerations that refuse other values. quicktype's `type Kind string` with its constants decodes
 * any string (`"kind": "video"` read with a nil error, where Python raises ValueError); each enum type
 * here gets an UnmarshalJSON and a MarshalJSON that accept its constants only. The methods list the
 * constants by their Go names, so no value of the spec's is written into them. Integer enumerations,
 * handed to quicktype as marked strings (int-enums.ts), become typed constants over int64 first.
 */
import { unmarked } from './int-enums';
import { PatchFailed } from '../patch';
import { quicktypeStringValue } from './quicktype-run';

/** quicktype's enum type and its constant block. */
const ENUM = /^type (\w+) string\n\nconst \(\n((?:\t\w+ +\w+ = "(?:[^"\\\n]|\\.)*"\n)+)\)\n/gm;
const CONSTANT = /^\t(\w+) +(\w+) = "((?:[^"\\\n]|\\.)*)"$/gm;

interface GoEnum {
  name: string;
  base: 'string' | 'int64';
  constants: string[];
}

/** The enums quicktype wrote, integer ones (all their values marked) turned into typed int64 constants. */
function integerConstants(text: string): { text: string; enums: GoEnum[] } {
  const enums: GoEnum[] = [];
  const out = text.replace(ENUM, (block, name: string, body: string) => {
    const constants = [...body.matchAll(CONSTANT)].map((m) => ({ go: m[1]!, value: quicktypeStringValue(m[3]!) }));
    const numbers = constants.map((c) => unmarked(c.value));
    const integer = numbers.every((n) => n !== null);
    enums.push({ name, base: integer ? 'int64' : 'string', constants: constants.map((c) => c.go) });
    if (!integer) return block;
    const lines = constants.map((c, i) => `\t${c.go} ${name} = ${numbers[i]}`);
    return `type ${name} int64\n\nconst (\n${lines.join('\n')}\n)\n`;
  });
  return { text: out, enums };
}

/** The two methods of one enum type. */
function enumMethods(e: GoEnum): string {
  const list = `[]${e.name}{${e.constants.join(', ')}}`;
  const shown = e.base === 'string' ? '%q' : '%d';
  return [
    `// UnmarshalJSON reads one of the values of ${e.name}, and refuses any other.`,
    `func (r *${e.name}) UnmarshalJSON(data []byte) error {`,
    `\tvar v ${e.base}`,
    '\tif err := json.Unmarshal(data, &v); err != nil {',
    '\t\treturn err',
    '\t}',
    `\tfor _, known := range ${list} {`,
    `\t\tif ${e.name}(v) == known {`,
    '\t\t\t*r = known',
    '\t\t\treturn nil',
    '\t\t}',
    '\t}',
    `\treturn fmt.Errorf("${shown} is not a value of ${e.name}", v)`,
    '}',
    '',
    `// MarshalJSON writes one of the values of ${e.name}, and refuses any other.`,
    `func (r ${e.name}) MarshalJSON() ([]byte, error) {`,
    `\tfor _, known := range ${list} {`,
    '\t\tif r == known {',
    `\t\t\treturn json.Marshal(${e.base}(r))`,
    '\t\t}',
    '\t}',
    `\treturn nil, fmt.Errorf("${shown} is not a value of ${e.name}", ${e.base}(r))`,
    '}',
    '',
  ].join('\n');
}

/** quicktype's Go with integer enums restored and every enum checked when read and written. */
export function checkedEnums(text: string): string {
  const { text: out, enums } = integerConstants(text);
  // An enum quicktype writes otherwise than ENUM reads must stop generation, not pass unchecked.
  const written = [...text.matchAll(/^type \w+ string\n\nconst \(/gm)].length;
  if (written !== enums.length)
    throw new PatchFailed(
      `the go (quicktype) emitter could not read ${written - enums.length} of its ` +
        `${written} enum types' constants (quicktype writes them otherwise now; go-enums.ts ` +
        `needs updating)`,
    );
  return enums.length === 0 ? out : [out.trimEnd(), '', ...enums.map(enumMethods)].join('\n');
}
