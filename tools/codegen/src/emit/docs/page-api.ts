/**
 * The channels and methods pages: a chip list, then one section (and anchor) per channel or method
 * (page-channel.ts, page-method.ts); where the spec has groups, one such page per group and an index.
 */
import type { ChannelModel, MethodModel } from '../../model/types';
import { code, link, type Block, type Page } from './ir';
import { plural, type PageKit } from './page-kit';
import { PAGES } from './site';
import { loginLink } from './page-login-links';
import { channelSection } from './page-channel';
import { methodSection } from './page-method';
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

/**
 * The methods page: a chip list of method names, then one section per method. Where the methods have
 * groups (groups.ts), one such page per group and an index page listing the groups.
 */
export function methodsPage(kit: PageKit): Page[] {
  const m = kit.model;
  const intro = (n: number): Block => ({
    kind: 'p',
    text: [
      `${plural(n, 'JSON-RPC 2.0 method')}. Over WebSocket a request is a frame ` +
        `on the socket; over HTTP it is a POST of the params to the method's path.`,
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
