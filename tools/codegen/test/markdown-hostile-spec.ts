/**
 * A spec whose text is Markdown and HTML that runs (markdown-escape.test.ts): script and image tags,
 * backticks that end a code span, a line of backticks that ends a code fence, pipes that split a
 * table cell, line breaks that end a line of a list or a heading.
 */

/** Each runs when a renderer that allows HTML meets it raw. */
export const SCRIPT = '<script>alert(1)</script>';
export const IMG = '<img src=x onerror=alert(2)>';

/** An enum value that closes a one- or two-backtick code span, then an image that runs. */
export const ENUM_VALUE = `a\`\` ${IMG} \`b|c`;
/** An x-http-path that closes a three- (or four-) backtick fence, then a script. */
export const HTTP_PATH = `/get\n\`\`\`\n${SCRIPT}\n\`\`\`\`\n${IMG}`;
/** A title with a pipe (a new table cell), a line break (a new line) and both tags. */
export const TITLE = `Feed | ${SCRIPT}\n# ${IMG}`;
/** A method name with a backtick, a pipe and a tag. */
export const METHOD = `get\`thing|${IMG}`;

/** The spec as JSON (which YAML reads); `extra` adds enum values (the diff's second version). */
export function markdownHostileSpec(extra: string[] = []): string {
  const spec = {
    asyncapi: '3.0.0',
    info: { title: `Evil ${SCRIPT}`, version: '1.0.0', description: `Read ${IMG} and ${SCRIPT}.` },
    servers: {
      live: { host: 'h.example.test', protocol: 'wss', pathname: '/ws' },
      rest: { host: 'h.example.test', protocol: 'https', pathname: '' },
    },
    channels: {
      calls: {
        address: null,
        messages: { Req: { $ref: '#/components/messages/Req' }, Res: { $ref: '#/components/messages/Res' } },
      },
      feed: {
        address: 'feed',
        title: TITLE,
        description: `A feed ${SCRIPT}.`,
        messages: { Tick: { $ref: '#/components/messages/Tick' } },
      },
    },
    operations: {
      getThing: {
        action: 'send',
        summary: `Get it | ${SCRIPT}`,
        'x-method': METHOD,
        'x-transports': ['ws', 'http'],
        'x-http-path': HTTP_PATH,
        channel: { $ref: '#/channels/calls' },
        messages: [{ $ref: '#/channels/calls/messages/Req' }],
        reply: { channel: { $ref: '#/channels/calls' }, messages: [{ $ref: '#/channels/calls/messages/Res' }] },
      },
      onFeed: {
        action: 'receive',
        channel: { $ref: '#/channels/feed' },
        messages: [{ $ref: '#/channels/feed/messages/Tick' }],
      },
    },
    components: {
      messages: {
        Req: { payload: { $ref: '#/components/schemas/Req' } },
        Res: { payload: { $ref: '#/components/schemas/Req' } },
        Tick: { payload: { $ref: '#/components/schemas/Req' } },
      },
      schemas: {
        Kind: { type: 'string', description: `Kinds ${IMG}`, enum: [ENUM_VALUE, 'plain', ...extra] },
        Req: {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: { $ref: '#/components/schemas/Kind' } },
        },
      },
    },
  };
  return JSON.stringify(spec, null, 2);
}
