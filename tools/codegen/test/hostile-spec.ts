/**
 * A hostile spec for the escaping tests (hostile.test.ts): its titles, summaries, descriptions, method
 * names, operation and channel ids, channel parameters and addresses, property names, enum values and
 * schema names hold text that ends a comment or a string literal in TypeScript, Python or Go and then
 * runs code. Written as JSON (which YAML reads), every character outside ASCII escaped.
 */

/** What the payloads do when they run: set a marker or leave with status 7. */
export const TS_RUN = 'globalThis.__pwned = 1; process.exit(7);';
export const PY_RUN = '__import__("os")._exit(7)';
export const GO_RUN = 'func init() { panic(7) }';

/**
 * Text that leaves a JS block comment (star, star, slash, slash survives one removal of the closing
 * pair; then a bare closing pair), a line comment (\n, U+2028, U+2029; \r in Python), a Python
 * docstring, each quote, a template literal, a Go struct tag, an HTML comment; with NUL, a
 * bidirectional override, a byte-order mark and a trailing backslash.
 */
export const HOSTILE = [
  `**// ${TS_RUN} /*`,
  `*/ ${TS_RUN} /*`,
  `\n${TS_RUN}\n//`,
  `\u2028${TS_RUN}\u2029//`,
  `\r${PY_RUN}\r#`,
  `"""\n${PY_RUN}\n"""`,
  `' " \` \${${TS_RUN}}`,
  `\`json:"x"\` }\n${GO_RUN}\ntype Z struct { B string \``,
  '--> <!-- \u0000 \u202e \ufeff \\',
].join(' ');

/** A name holding the characters that end a literal or a comment. */
const hostileName = (s: string) => `${s}*/'"\`\${x}"""\n\u2028`;

/** A property key that ends quicktype's Go struct tag (Go refuses it), a Python docstring and a JS comment. */
export const TAG_BREAKING_KEY =
  `k\`json:"x"\` }\n${GO_RUN}\ntype Z struct { B string \` """\n${PY_RUN}\n""" ` + `*/ ${TS_RUN} /*`;
/** A key hostile in every language but one a Go struct tag can carry (braces, parentheses, stars, slashes). */
export const TAGGABLE_KEY = `} ${GO_RUN} type Q struct { */ ${TS_RUN} /*`;
/** A channel parameter (a parameter name takes no braces). */
export const PARAM = `p*/ ${TS_RUN} /*\`$`;
/** A schema name that ends its Python string literal in the table of converters, and runs at import. */
// (No underscore: json-schema-to-typescript names such a schema otherwise than tsName does.)
export const SCHEMA = `Thing": (exit(7)), "x`;
/** The x-method that once ended the doc comment of its member of `rpc` and ran at createClient(). */
export const METHOD = `a*/ [(${TS_RUN})]: 0, /*`;

const call = (summary: string, method: string) => ({
  action: 'send',
  summary,
  description: HOSTILE,
  channel: { $ref: '#/channels/calls' },
  messages: [{ $ref: '#/channels/calls/messages/Req' }],
  reply: { channel: { $ref: '#/channels/calls' }, messages: [{ $ref: '#/channels/calls/messages/Res' }] },
  'x-method': method,
});

/** The spec's text; `key` is the hostile property key of the schema Req. */
export function hostileSpec(key: string): string {
  const spec = {
    asyncapi: '3.0.0',
    info: { title: `Evil ${HOSTILE}`, version: '1.0.0', description: HOSTILE },
    channels: {
      calls: {
        address: null,
        messages: { Req: { $ref: '#/components/messages/Req' }, Res: { $ref: '#/components/messages/Res' } },
      },
      things: {
        address: `things.{${PARAM}}.*/ ${TS_RUN} /*\`$x`,
        title: `Things ${HOSTILE}`,
        description: HOSTILE,
        'x-access': 'public',
        parameters: { [PARAM]: { description: HOSTILE, enum: [hostileName('e1'), 'plain'] } },
        messages: { thing: { $ref: '#/components/messages/Thing' } },
      },
    },
    operations: {
      [`do*/It'"\n`]: call(`Do it ${HOSTILE}`, METHOD),
      other: call(HOSTILE, hostileName('m')),
      onThings: { action: 'receive', channel: { $ref: '#/channels/things' } },
    },
    components: {
      messages: {
        Req: { payload: { $ref: '#/components/schemas/Req' } },
        Res: { payload: { $ref: '#/components/schemas/Res' } },
        Thing: { payload: { $ref: `#/components/schemas/${SCHEMA}` } },
      },
      schemas: {
        Req: {
          type: 'object',
          description: HOSTILE,
          properties: {
            [key]: { type: 'string', description: HOSTILE },
            // json-schema-to-typescript writes a tsType into the code as given.
            plain: { type: 'string', tsType: `string }\n${TS_RUN}\nexport interface Q {\n x: string` },
          },
        },
        Res: {
          type: 'object',
          properties: { kind: { type: 'string', description: HOSTILE, enum: [hostileName('v1'), HOSTILE, 'plain'] } },
        },
        [SCHEMA]: { type: 'object', description: HOSTILE, properties: { v: { type: 'string' } } },
      },
    },
  };
  return JSON.stringify(spec, null, 2).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
