/**
 * One channel's section of a channels page (page-api.ts): its address, access and payload, its
 * parameters, and an example notification with how to subscribe. Apart from the page, which only
 * lists the channels and groups.
 */
import type { ChannelModel, MethodModel } from '../../model/types';
import { code, joined, link, rich, tag, type Block, type Inline } from './ir';
import type { PageKit } from './page-kit';
import { frameCaption, messageLine, namedExamples } from './page-examples';
import { usedFields } from './page-fields';
import { loginLink } from './page-login-links';
import { DEFAULT_FRAMES } from '../../model/plain-spec';
import type { ChannelExample } from './examples';

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
export function channelSection(kit: PageKit, c: ChannelModel): Block[] {
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
