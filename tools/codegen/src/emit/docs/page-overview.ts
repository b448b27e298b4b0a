/** The overview page: servers and transports, versioning, every channel and method in a table. */
import { code, joined, link, rich, tag, type Block, type Inline, type Page } from './ir';
import { TRANSPORT_LABEL, plural, type PageKit } from './page-kit';
import { PAGES, hasPage } from './site';

/** The overview page (index): servers, versioning, channels, methods and the reference pages. */
export function overviewPage(kit: PageKit): Page {
  const m = kit.model;
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: [m.title], tags: [tag(`version ${m.version}`, 'kind')] },
    ...m.description
      .split(/\n\s*\n/)
      .filter((p) => p.trim())
      .map((p): Block => ({ kind: 'p', text: rich(p) })),
    summaryFacts(kit),
    ...serverBlocks(kit),
    ...kit.markers('#/info', undefined),
    ...apiTables(kit),
    ...referenceBlocks(kit),
  ];
  return { path: PAGES.index, title: 'Overview', nav: 'index', blocks };
}

/** The API at a glance: version, transports, how many channels and methods, and what is left open. */
function summaryFacts(kit: PageKit): Block {
  const m = kit.model;
  const transports = [...new Set(m.servers.map((x) => x.transport))].map((t) => TRANSPORT_LABEL[t]);
  return {
    kind: 'facts',
    rows: [
      ['Version', [code(m.version)]],
      ['Transports', [transports.join(', ') || 'none listed']],
      [
        'Channels',
        [link({ page: PAGES.index, anchor: 'channels' }, plural(m.channels.length, 'subscription channel'))],
      ],
      ['Methods', [link({ page: PAGES.index, anchor: 'methods' }, plural(m.methods.length, 'JSON-RPC method'))]],
      ...(hasPage(m, PAGES.open)
        ? ([
            [
              'Left open',
              [
                link(
                  { page: PAGES.open },
                  `${plural(m.notShown.length, 'place')} not shown, ${plural(m.assumptions.length, 'assumption')}`,
                ),
              ],
            ],
          ] as Array<[string, Inline[]]>)
        : []),
    ],
  };
}

/** The servers (URL, transport, markers) and how the spec's version and server paths read. */
function serverBlocks(kit: PageKit): Block[] {
  const m = kit.model;
  const s = kit.site;
  const paths = [...new Set(m.servers.map((x) => x.pathname).filter(Boolean))];
  return [
    { kind: 'h', level: 2, id: 'servers', text: ['Servers and transports'] },
    {
      kind: 'table',
      head: ['Server', 'URL', 'Transport', 'Description'],
      rows: m.servers.map((x) => ({
        id: s.serverRef(x.id).anchor!,
        cells: [
          [code(x.id), ...(x.title !== x.id ? [' ', x.title] : [])],
          [code(`${x.protocol}://${x.host}${x.pathname}`)],
          [TRANSPORT_LABEL[x.transport]],
          rich(x.description),
        ],
      })),
    },
    ...m.servers.flatMap((x) => kit.markersInline(`#/servers/${x.id}`, x.id)),
    { kind: 'h', level: 2, id: 'versioning', text: ['Versioning'] },
    {
      kind: 'p',
      text: [
        `This document describes version `,
        code(m.version),
        ' of the spec. ',
        ...(paths.length ? ['Server paths: ', ...joined(paths.map((p) => [code(p)])), '. '] : []),
        'Each page is generated from the spec; the version above names the spec it came from.',
      ],
    },
  ];
}

/** Every channel and every method in a table (a sentence where there are none). */
function apiTables(kit: PageKit): Block[] {
  const m = kit.model;
  const s = kit.site;
  return [
    { kind: 'h', level: 2, id: 'channels', text: ['Channels'] },
    m.channels.length === 0
      ? { kind: 'p', text: ['This API has no subscription channels.'] }
      : {
          kind: 'table',
          head: ['Address', 'Access', 'Payload', 'Title'],
          rows: m.channels.map((c) => ({
            cells: [
              [link(s.channel(c), code(c.address))],
              [tag(c.access, c.access)],
              kit.payload(c.payload),
              [c.title],
            ],
          })),
        },
    { kind: 'h', level: 2, id: 'methods', text: ['Methods'] },
    m.methods.length === 0
      ? { kind: 'p', text: ['This API has no methods.'] }
      : {
          kind: 'table',
          head: ['Method', 'Transports', 'Rate-limit class', 'Auth', 'Summary'],
          rows: m.methods.map((x) => ({
            cells: [
              [link(s.method(x), code(x.name))],
              [x.transports.map((t) => TRANSPORT_LABEL[t]).join(', ')],
              x.rateLimitClass === null ? ['none'] : [link(s.classRef(x.rateLimitClass), code(x.rateLimitClass))],
              [x.auth],
              rich(x.summary),
            ],
          })),
        },
  ];
}

/** The overview's pointers to the reference pages, with their counts, and how to read the reference. */
function referenceBlocks(kit: PageKit): Block[] {
  const m = kit.model;
  const records = m.types.filter((t) => t.kind !== 'enum').length;
  const enums = m.types.filter((t) => t.kind === 'enum').length;
  return [
    { kind: 'h', level: 2, id: 'reference', text: ['Reference'] },
    {
      kind: 'list',
      items: [
        { page: PAGES.records, text: [link({ page: PAGES.records }, 'Records and types'), ` (${records})`] },
        { page: PAGES.enums, text: [link({ page: PAGES.enums }, 'Enumerations'), ` (${enums})`] },
        {
          page: PAGES.errors,
          text: [link({ page: PAGES.errors }, 'Errors'), ` (${plural(m.errors.codes.length, 'code')})`],
        },
        {
          page: PAGES.limits,
          text: [
            link({ page: PAGES.limits }, 'Limits and rate-limit classes'),
            ` (${plural(m.limits.length, 'limit')}, ${plural(m.rateLimitClasses.length, 'class', 'classes')})`,
          ],
        },
        { page: PAGES.login, text: [link({ page: PAGES.login }, 'Login and its headers')] },
        {
          page: PAGES.open,
          text: [
            link({ page: PAGES.open }, 'Not shown and assumptions'),
            ` (${plural(m.notShown.length, 'place')}, ${plural(m.assumptions.length, 'assumption')})`,
          ],
        },
      ]
        .filter((it) => hasPage(m, it.page))
        .map(({ text }) => ({ text })),
    },
    { kind: 'h', level: 2, id: 'reading', text: ['How to read this reference'] },
    {
      kind: 'list',
      items: [
        {
          text: [
            'Every example comes from the spec and was validated against its schemas when this site was generated.',
          ],
        },
        ...(hasPage(m, PAGES.open) ? [markersItem()] : []),
        {
          text: [
            'Every channel, method, record, field and enumeration value has a stable ' +
              'anchor: copy a link from its heading or row.',
          ],
        },
      ],
    },
  ];
}

/** How the markers read, and where they lead. */
function markersItem(): { text: Inline[] } {
  return {
    text: [
      tag('not shown', 'not-shown'),
      ' marks a place the interface document leaves open; ',
      tag('assumption', 'assumption'),
      ' marks a choice the spec makes where the document makes none. Both link to ',
      link({ page: PAGES.open }, 'one page'),
      '.',
    ],
  };
}
