/**
 * Go records that round-trip exactly. quicktype's structs drop keys they do not declare, write an
 * optional key given as null (or an optional empty list) as absent, and decode free-form numbers as
 * float64. Each record here keeps unknown keys and null optionals and writes them back, optional
 * lists and maps become pointers, and free-form numbers are decoded as json.Number (exact).
 */
import { goString } from '../escape';
import { patch } from '../patch';
import { quicktypeStringValue } from './quicktype-run';

/** A patch to quicktype's Go (patch.ts): `what` it is for, and `when` it applies only to some specs. */
export const goPatch = (what: string, when?: string | RegExp) => ({ emitter: 'go (quicktype)', what, when });

/** One struct quicktype wrote: its name, its JSON keys, and which of them are optional. */
interface GoRecord {
  name: string;
  known: string[];
  optional: string[];
}

const STRUCT = /^type (\w+) struct \{\n([\s\S]*?)\n\}\n/gm;
const TAG = /`json:"([^",]*)(,omitempty)?"`/;

/** The structs with JSON tags and no (un)marshalling of their own (quicktype's unions have theirs). */
function recordsOf(text: string): GoRecord[] {
  const records: GoRecord[] = [];
  for (const [, name, body] of text.matchAll(STRUCT)) {
    if (text.includes(`func (x *${name}) UnmarshalJSON`)) continue;
    const tags = body!
      .split('\n')
      .map((line) => TAG.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
    if (tags.length === 0) continue;
    const key = (m: RegExpExecArray) => quicktypeStringValue(m[1]!);
    records.push({ name: name!, known: tags.map(key), optional: tags.filter((m) => m[2]).map(key) });
  }
  return records;
}

/** Optional lists and maps become pointers, so that a present empty one is told from an absent one. */
function pointerCollections(text: string): string {
  return patch(
    text,
    /^(\t\w+\s+)((?:\[\]|map\[)\S*)(\s+`json:"[^"]*,omitempty"`)/gm,
    '$1*$2$3',
    goPatch('make optional lists and maps pointers', /(?:\[\]|map\[)[^\n]*,omitempty/),
  );
}

/** The two extra fields and the two methods of each record. */
function recordCode(record: GoRecord): { fields: string; methods: string } {
  const list = (keys: string[]) => `[]string{${keys.map(goString).join(', ')}}`;
  const fields = [
    '\t// Keys the record does not declare, kept so that marshalling writes back what was read.',
    '\tJSONExtra map[string]json.RawMessage `json:"-"`',
    '\t// Optional keys that were present with the value null (absent and null are both nil above).',
    '\tJSONNulls []string `json:"-"`',
  ].join('\n');
  const methods = [
    `func (r *${record.name}) UnmarshalJSON(data []byte) error {`,
    `\ttype plain ${record.name}`,
    '\tvar p plain',
    `\textra, nulls, err := readRecord(data, &p, ${list(record.known)}, ${list(record.optional)})`,
    '\tif err != nil {',
    '\t\treturn err',
    '\t}',
    '\tp.JSONExtra, p.JSONNulls = extra, nulls',
    `\t*r = ${record.name}(p)`,
    '\treturn nil',
    '}',
    '',
    `func (r ${record.name}) MarshalJSON() ([]byte, error) {`,
    `\ttype plain ${record.name}`,
    '\tp := plain(r)',
    '\treturn writeRecord(&p, r.JSONExtra, r.JSONNulls)',
    '}',
    '',
  ].join('\n');
  return { fields, methods };
}

/** readRecord's signature: one line in the Go (as gofmt writes it), in two here to fit the source's width. */
const READ_RECORD =
  'func readRecord(data []byte, plain interface{}, known []string, optional []string) ' +
  '(map[string]json.RawMessage, []string, error) {';

/** The helpers every record's methods share. */
const HELPERS = `
// decodeExact decodes data into v, keeping free-form numbers as json.Number (exact, any size).
func decodeExact(data []byte, v interface{}) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// readRecord decodes a record into plain and returns the keys it does not declare and the optional
// keys given as null.
${READ_RECORD}
	if err := decodeExact(data, plain); err != nil {
		return nil, nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, err
	}
	var extra map[string]json.RawMessage
	var nulls []string
	for key, value := range raw {
		if !containsKey(known, key) {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[key] = value
		} else if containsKey(optional, key) && string(bytes.TrimSpace(value)) == "null" {
			nulls = append(nulls, key)
		}
	}
	sort.Strings(nulls)
	return extra, nulls, nil
}

// writeRecord encodes plain and adds back the null optionals and the undeclared keys it was read with.
func writeRecord(plain interface{}, extra map[string]json.RawMessage, nulls []string) ([]byte, error) {
	data, err := json.Marshal(plain)
	if err != nil || (len(extra) == 0 && len(nulls) == 0) {
		return data, err
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	for _, key := range nulls {
		if _, ok := out[key]; !ok {
			out[key] = json.RawMessage("null")
		}
	}
	for key, value := range extra {
		if _, ok := out[key]; !ok {
			out[key] = value
		}
	}
	return json.Marshal(out)
}

func containsKey(keys []string, key string) bool {
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return false
}
`;

/**
 * quicktype gives `type X interface{}` and a pointer type (`type X *Y`, a nullable top-level, go-target.ts)
 * a pointer-receiver Marshal, which Go refuses; json.Marshal(x) does that job.
 */
function withoutInterfaceMarshal(text: string): string {
  let out = text;
  for (const [, name] of text.matchAll(/^type (\w+) (?:interface\{\}|\*\w+)$/gm)) {
    out = patch(
      out,
      `func (r *${name}) Marshal() ([]byte, error) {\n\treturn json.Marshal(r)\n}\n`,
      '',
      goPatch(`remove the Marshal method of ${name}`, `func (r *${name}) Marshal(`),
    );
  }
  return out;
}

/**
 * A nullable top-level is declared as a pointer (`type X *Y`, go-target.ts), which carries no methods:
 * decoded as it is, encoding/json would fill the Y without Y's UnmarshalJSON (an enum's check, a
 * record's kept keys). Its Unmarshal function decodes into a plain *Y, which has them.
 */
function pointerTopLevels(text: string): string {
  let out = text;
  for (const [, name, base] of text.matchAll(/^type (\w+) \*(\w+)$/gm))
    out = patch(
      out,
      `func Unmarshal${name}(data []byte) (${name}, error) {\n\tvar r ${name}\n`,
      `func Unmarshal${name}(data []byte) (${name}, error) {\n\tvar r *${base}\n`,
      goPatch(`decode ${name} through *${base}`),
    );
  return out;
}

/** A type declared over another (go-target.ts) takes that type's JSON methods, which Go does not carry over. */
function delegations(text: string): string[] {
  const methods: string[] = [];
  for (const [, name, base] of text.matchAll(/^type (\w+) (\w+)$/gm)) {
    if (!new RegExp(`^func \\(\\w+ \\*?${base}\\) UnmarshalJSON`, 'm').test(text)) continue;
    methods.push(
      `func (r *${name}) UnmarshalJSON(data []byte) error {\n\treturn (*${base})(r).UnmarshalJSON(data)\n}\n`,
      `func (r ${name}) MarshalJSON() ([]byte, error) {\n\tbase := ${base}(r)\n\treturn base.MarshalJSON()\n}\n`,
    );
  }
  return methods;
}

/** quicktype's Go with every record made exact (see the module comment). */
export function exactRecords(text: string): string {
  const pointered = pointerCollections(pointerTopLevels(withoutInterfaceMarshal(text)));
  const records = recordsOf(pointered);
  let out = pointered;
  for (const record of records) {
    const { fields } = recordCode(record);
    out = patch(
      out,
      new RegExp(`^(type ${record.name} struct \\{\\n[\\s\\S]*?)\\n\\}\\n`, 'm'),
      `$1\n${fields}\n}\n`,
      goPatch(`add the kept keys to ${record.name}`),
    );
  }
  // Top-level decoding keeps free-form numbers exact too.
  out = patch(
    out,
    /err := json\.Unmarshal\(data, &r\)/g,
    'err := decodeExact(data, &r)',
    goPatch('decode the top-level types exactly', 'json.Unmarshal('),
  );
  const methods = [...records.map((r) => recordCode(r).methods)].join('\n');
  return [out.trimEnd(), '', methods, ...delegations(out + methods), HELPERS.trim(), ''].join('\n');
}
