/** The channels and methods pages: one section (and anchor) per channel and per method. */
import type { ChannelModel, MethodModel, PayloadModel } from '../../model/types';
import { code, joined, link, rich, tag, type Block, type Inline, type Page } from './ir';
import { TRANSPORT_LABEL, plural, type PageKit } from './page-kit';
import { PAGES, hasPage } from './site';
import { frameCaption, messageLine, namedExamples } from './page-examples';
import { usedFields } from './page-fields';
import { DEFAULT_FRAMES } from '../../model/plain-spec';
import type { ChannelExample } from './examples';
import type { Group } from './groups';

/**
 * The channels page: a chip list of addresses, then one section per channel. Where the channels have
 * groups (groups.ts), one such page per group and an index page listing the groups.
 */
export function channelsPage(kit: PageKit): Page[] {
  const m = kit.model;
  const intro = (n: number): Block => ({
    kind: 'p',
    text: [
      `${plural(n, 'subscription channel')}. An address is a template: fill in its parameters to subscribe.`,
      ...(m.channels.some((c) => c.access === 'private')
        ? [
            ' Public channels need no login; private ones need ',
            loginLink(kit),
            " and serve only the caller's own data.",
          ]
        : []),
    ],
  });
  const chips = (list: ChannelModel[]): Block => ({
    kind: 'list',
    chips: true,
    items: list.map((c) => ({ text: [link(kit.site.channel(c), code(c.address))] })),
  });
  const groups = kit.site.layout.channels;
  if (groups.length === 0) {
    const blocks = [
      { kind: 'h', level: 1, text: ['Channels'] } as Block,
      intro(m.channels.length),
      chips(m.channels),
      ...m.channels.flatMap((c) => channelSection(kit, c)),
    ];
    return [{ path: PAGES.channels, title: 'Channels', nav: 'channels', blocks }];
  }
  const index: Page = {
    path: PAGES.channels,
    title: 'Channels',
    nav: 'channels',
    blocks: [
      { kind: 'h', level: 1, text: ['Channels'] },
      intro(m.channels.length),
      ...groups.flatMap((g): Block[] => [groupHeading(g, 'channel'), chips(g.items)]),
    ],
  };
  return [
    index,
    ...groups.map((g) => ({
      path: g.page,
      title: `Channels: ${g.title}`,
      nav: g.page,
      blocks: [
        { kind: 'h', level: 1, text: ['Channels: ', g.title] } as Block,
        intro(g.items.length),
        chips(g.items),
        ...g.items.flatMap((c) => channelSection(kit, c)),
      ],
    })),
  ];
}

/** A group's heading on an index page: its title linked to its page, and how many it holds. */
function groupHeading(g: Group<unknown>, word: string): Block {
  return {
    kind: 'h',
    level: 2,
    id: g.page,
    text: [link({ page: g.page }, g.title), ` (${plural(g.items.length, word)})`],
  };
}

/** `login`, a link to the login page where the spec describes one. */
const loginLink = (kit: PageKit): Inline =>
  hasPage(kit.model, PAGES.login) ? link({ page: PAGES.login }, 'login') : 'login';

/**
 * The methods page: a chip list of method names, then one section per method. Where the methods have
 * groups (groups.ts), one such page per group and an index page listing the groups.
 */
export function methodsPage(kit: PageKit): Page[] {
  const m = kit.model;
  const intro = (n: number): Block => ({
    kind: 'p',
    text: [
      `${plural(n, 'JSON-RPC 2.0 method')}. Over WebSocket a request is a frame on the socket; over HTTP it is a POST of the params to the method's path.`,
    ],
  });
  const chips = (list: MethodModel[]): Block => ({
    kind: 'list',
    chips: true,
    items: list.map((x) => ({ text: [link(kit.site.method(x), code(x.name))] })),
  });
  const groups = kit.site.layout.methods;
  if (groups.length === 0) {
    const blocks = [
      { kind: 'h', level: 1, text: ['Methods'] } as Block,
      intro(m.methods.length),
      chips(m.methods),
      ...m.methods.flatMap((x) => methodSection(kit, x)),
    ];
    return [{ path: PAGES.methods, title: 'Methods', nav: 'methods', blocks }];
  }
  const index: Page = {
    path: PAGES.methods,
    title: 'Methods',
    nav: 'methods',
    blocks: [
      { kind: 'h', level: 1, text: ['Methods'] },
      intro(m.methods.length),
      ...groups.flatMap((g): Block[] => [groupHeading(g, 'method'), chips(g.items)]),
    ],
  };
  return [
    index,
    ...groups.map((g) => ({
      path: g.page,
      title: `Methods: ${g.title}`,
      nav: g.page,
      blocks: [
        { kind: 'h', level: 1, text: ['Methods: ', g.title] } as Block,
        intro(g.items.length),
        chips(g.items),
        ...g.items.flatMap((x) => methodSection(kit, x)),
      ],
    })),
  ];
}

/**
 * How to subscribe to a channel: the spec's subscribe method, else the frame the client assumes (the
 * spec names none by `x-role`).
 */
function subscribeLine(kit: PageKit, subscribe: MethodModel | undefined, address: string | null): Block {
  const filled: Inline[] = address === null ? ['.'] : [', e.g. ', code(address), '.'];
  if (subscribe)
    return {
      kind: 'p',
      text: [
        'Subscribe with ',
        link(kit.site.method(subscribe), code(subscribe.name)),
        ' giving the address with its parameters filled in',
        ...filled,
      ],
    };
  const params = JSON.stringify({ channels: [address ?? '<address>'] });
  return {
    kind: 'p',
    text: [
      'Subscribe with the JSON-RPC method ',
      code(DEFAULT_FRAMES.subscribe),
      ', params ',
      code(params),
      ' (and ',
      code(DEFAULT_FRAMES.unsubscribe),
      ' likewise): the spec names no subscribe method (no ',
      code('x-role'),
      '), so this is what the client sends.',
    ],
  };
}

/** One channel: address, access, payload, markers, parameters and an example frame. */
function channelSection(kit: PageKit, c: ChannelModel): Block[] {
  const s = kit.site;
  return [
    {
      kind: 'h',
      level: 2,
      id: s.channel(c).anchor!,
      text: [code(c.address)],
      tags: [tag(c.access, c.access), ...kit.markerTags(`#/channels/${c.id}`, c.assumption)],
    },
    { kind: 'p', text: [{ strong: [c.title] }, ...(c.description ? ['. ', ...rich(c.description)] : [])] },
    {
      kind: 'facts',
      rows: [
        ['Address', [code(c.address)]],
        [
          'Access',
          c.access === 'private'
            ? [tag('private', 'private'), ' needs ', loginLink(kit), "; only the caller's own data"]
            : [tag('public', 'public'), ' no login needed'],
        ],
        ['Payload', kit.payload(c.payload)],
        ['Channel id', [code(c.id)]],
      ],
    },
    ...kit.markers(`#/channels/${c.id}`, c.assumption),
    { kind: 'h', level: 3, id: s.channel(c, 'parameters').anchor!, text: ['Parameters'] },
    channelParameters(c),
    { kind: 'h', level: 3, id: s.channel(c, 'payload').anchor!, text: ['Payload'] },
    ...channelPayload(kit, c),
    { kind: 'h', level: 3, id: s.channel(c, 'example').anchor!, text: ['Example notification'] },
    ...channelExample(kit, c),
  ];
}

/** A channel's parameters: each one's allowed values and description. */
function channelParameters(c: ChannelModel): Block {
  if (c.parameters.length === 0) return { kind: 'p', text: ['None: the address is fixed.'] };
  return {
    kind: 'table',
    head: ['Parameter', 'Allowed values', 'Description'],
    rows: c.parameters.map((p) => ({
      cells: [
        [code(`{${p.name}}`)],
        p.enum
          ? joined(
              p.enum.map((v) => [code(v)]),
              ' ',
            )
          : ['any value'],
        rich(p.description),
      ],
    })),
  };
}

/** What a channel's notifications carry: the payload, the fields used, its messages, its schema when unnamed. */
function channelPayload(kit: PageKit, c: ChannelModel): Block[] {
  return [
    {
      kind: 'p',
      text: c.payload.array
        ? ["Each notification's ", code('data'), ' is ', ...kit.payload(c.payload), '.']
        : [
            "Each notification's ",
            code('data'),
            ' is one ',
            ...kit.payload(c.payload),
            c.payload.record ? ' object.' : '.',
          ],
    },
    ...usedFields(kit, c.payload.record),
    ...(c.messages ?? []).flatMap((msg) => messageLine('Message', msg)),
    ...(c.payload.record ? [] : [kit.schemaBlock(c.payload.schema, ['Payload schema'])]),
  ];
}

/** A channel's example frame (its own, or one borrowed), how to subscribe, and its other examples. */
function channelExample(kit: PageKit, c: ChannelModel): Block[] {
  const s = kit.site;
  const ex = kit.examples.channels.get(c.id) ?? null;
  const subscribe = kit.model.methods.find((m) => m.id === kit.model.roles.subscribe);
  const blocks: Block[] = [];
  if (ex) {
    blocks.push({
      kind: 'code',
      id: ex.borrowedFrom ? undefined : s.example(c, 'payload', 0).anchor,
      text: kit.json(ex.frame),
      caption: exampleCaption(kit, c, ex),
    });
    blocks.push(subscribeLine(kit, subscribe, ex.address));
  } else {
    blocks.push({ kind: 'p', text: ['No example in the spec.'] });
    blocks.push(subscribeLine(kit, subscribe, null));
  }
  blocks.push(
    ...namedExamples(
      kit,
      'payload',
      c.examples,
      c.exampleInfo,
      ex !== null && ex.borrowedFrom === null,
      (i) => s.example(c, 'payload', i).anchor!,
    ),
  );
  return blocks;
}

/** The caption of a channel's example frame: whose example it is, and the frame it follows. */
function exampleCaption(kit: PageKit, c: ChannelModel, ex: ChannelExample): Inline[] {
  const s = kit.site;
  // The frame follows whatever assumption governs the notification frame schema, if any.
  const frameType = kit.model.roles.notificationFrame ? s.type(kit.model.roles.notificationFrame) : undefined;
  const notify = frameType?.assumption ? kit.model.assumptions.find((a) => a.id === frameType.assumption) : undefined;
  const caption: Inline[] = ex.borrowedFrom
    ? [
        'The spec has no example for this channel; this is the example of ',
        link(s.channel(ex.borrowedFrom), code(ex.borrowedFrom.address)),
        ', which carries the same payload.',
      ]
    : frameCaption('Notification', c.exampleInfo?.[0]);
  if (notify) caption.push(' Frame per ', link(s.assumptionRef(notify.id), 'assumption ', code(notify.id)), '.');
  if (!frameType)
    caption.push(
      ' The spec names no notification frame (no ',
      code('x-role'),
      '): this is the frame the client assumes.',
    );
  return caption;
}

/** The facts table of a method: transports, auth, rate-limit class (with budget and rule), order flow, operation id. */
function methodFacts(kit: PageKit, m: MethodModel): Array<[string, Inline[]]> {
  const s = kit.site;
  const rate: Inline[] =
    m.rateLimitClass === null ? ['none'] : [link(s.classRef(m.rateLimitClass), code(m.rateLimitClass))];
  const budget = m.rateLimitBudget ? s.limitRef(m.rateLimitBudget) : null;
  if (budget) rate.push(', budget ', link(budget, code(m.rateLimitBudget!)));
  if (m.rateLimitRule) {
    rate.push(
      ', rule: ',
      ...joined(
        Object.entries(m.rateLimitRule).map(([k, v]) => {
          const ref = s.limitRef(v);
          return [`${k} `, ref ? link(ref, code(v)) : code(v)];
        }),
      ),
    );
  }
  const facts: Array<[string, Inline[]]> = [
    [
      'Transports',
      joined(
        m.transports.map((t) => [
          t === 'http' && m.httpPath ? `HTTP POST ` : TRANSPORT_LABEL[t],
          ...(t === 'http' && m.httpPath ? [code(m.httpPath)] : []),
        ]),
      ),
    ],
    ['Auth', m.auth === 'login' ? [loginLink(kit), ' required'] : ['none']],
    ['Rate-limit class', rate],
  ];
  const signature: Inline = hasPage(kit.model, PAGES.login)
    ? link({ page: PAGES.login, anchor: 'action-signature' }, 'action signature')
    : 'action signature';
  if (m.orderFlow && m.actionModule)
    facts.push(['Order flow', ['state-changing; carries its own ', signature, ' (module ', code(m.actionModule), ')']]);
  else if (m.orderFlow) facts.push(['Order flow', ['state-changing; authorised by the login, no ', signature]]);
  if (m.source === 'clients')
    facts.push(['Source', ['not in the interface document; served because its public clients call it']]);
  facts.push(['Operation id', [code(m.id)]]);
  return facts;
}

/** One method: transports, auth, rate-limit class, params, result and example frames. */
function methodSection(kit: PageKit, m: MethodModel): Block[] {
  const s = kit.site;
  return [
    {
      kind: 'h',
      level: 2,
      id: s.method(m).anchor!,
      text: [code(m.name)],
      tags: [
        ...m.transports.map((t) => tag(TRANSPORT_LABEL[t], 'kind')),
        ...kit.markerTags(`#/operations/${m.id}`, m.assumption),
      ],
    },
    ...(m.summary ? [{ kind: 'p', text: rich(m.summary) } as Block] : []),
    ...(m.description ? [{ kind: 'p', text: rich(m.description) } as Block] : []),
    { kind: 'facts', rows: methodFacts(kit, m) },
    ...kit.markers(`#/operations/${m.id}`, m.assumption),
    { kind: 'h', level: 3, id: s.method(m, 'params').anchor!, text: ['Params'] },
    ...payloadSide(kit, 'params', m.params, m.assumedParams),
    ...messageLine('Request message', m.requestMessage),
    { kind: 'h', level: 3, id: s.method(m, 'result').anchor!, text: ['Result'] },
    ...payloadSide(kit, 'result', m.result, m.assumedResult),
    ...messageLine('Reply message', m.replyMessage),
    { kind: 'h', level: 3, id: s.method(m, 'example').anchor!, text: ['Example'] },
    ...methodExamples(kit, m),
  ];
}

/** A method's params or result: the payload, the record assumed where the document leaves it open, the fields used. */
function payloadSide(kit: PageKit, which: 'params' | 'result', p: PayloadModel, assumed: string | null): Block[] {
  const out: Block[] = [{ kind: 'p', text: [which === 'params' ? 'Params: ' : 'Result: ', ...kit.payload(p), '.'] }];
  if (assumed) {
    out.push({
      kind: 'note',
      tone: 'assumption',
      text: [
        'The document leaves the ',
        which,
        ' open; the sandbox and the client use ',
        ...kit.typeLink(assumed),
        '.',
      ],
    });
  } else if (!p.record) out.push(kit.schemaBlock(p.schema, [which === 'params' ? 'Params schema' : 'Result schema']));
  // The record the sandbox and the client use where the document leaves the payload open.
  out.push(...usedFields(kit, assumed ?? p.record));
  return out;
}

/** A method's example request (and the same over HTTP) and reply frames, then its other examples. */
function methodExamples(kit: PageKit, m: MethodModel): Block[] {
  const s = kit.site;
  const ex = kit.examples.methods.get(m.id) ?? { request: null, reply: null };
  const blocks: Block[] = [];
  if (!ex.request && !ex.reply) blocks.push({ kind: 'p', text: ['No example in the spec.'] });
  if (ex.request) {
    blocks.push({
      kind: 'code',
      id: s.example(m, 'params', 0).anchor,
      text: kit.json(ex.request),
      caption: frameCaption('Request', m.paramsExampleInfo?.[0]),
    });
    blocks.push(...httpRequest(kit, m, ex.request));
  }
  if (ex.reply)
    blocks.push({
      kind: 'code',
      id: s.example(m, 'result', 0).anchor,
      text: kit.json(ex.reply),
      caption: frameCaption('Reply', m.resultExampleInfo?.[0]),
    });
  blocks.push(
    ...namedExamples(
      kit,
      'params',
      m.paramsExamples,
      m.paramsExampleInfo,
      ex.request !== null,
      (i) => s.example(m, 'params', i).anchor!,
    ),
    ...namedExamples(
      kit,
      'result',
      m.resultExamples,
      m.resultExampleInfo,
      ex.reply !== null,
      (i) => s.example(m, 'result', i).anchor!,
    ),
  );
  return blocks;
}

/** The example request as an HTTP POST (with the login headers it needs), for a method served over HTTP. */
function httpRequest(kit: PageKit, m: MethodModel, request: unknown): Block[] {
  const http = m.transports.includes('http') ? kit.model.servers.find((x) => x.transport === 'http') : undefined;
  if (!http || !m.httpPath) return [];
  const lines = [`POST ${http.protocol}://${http.host}${m.httpPath}`, 'Content-Type: application/json'];
  if (m.auth === 'login' && kit.model.login) {
    const h = kit.model.login.headers;
    lines.push(
      `${h.wallet}: <wallet>`,
      `${h.timestamp}: <milliseconds>`,
      `${h.signature}: <signature of the timestamp>`,
    );
  }
  return [
    {
      kind: 'code',
      text: [...lines, '', kit.json((request as { params: unknown }).params)].join('\n'),
      caption: ['The same request over HTTP.'],
    },
  ];
}
