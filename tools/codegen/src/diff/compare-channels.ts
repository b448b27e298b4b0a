/** Changes to the subscription channels: address, access, parameters and their values, payload. */
import type { ApiModel, ChannelModel, ChannelParameterModel } from '../model/types';
import { pascal } from '../model/naming';
import { change, listDelta, show, type Change } from './change';
import { compareMessages, messagesOf } from './compare-messages';

/** The generated names of a channel: its builder, its address and payload types, its entries in the maps by id. */
const channelNames = (id: string) => [
  `channels.${id}`,
  `${pascal(id)}Address`,
  `${pascal(id)}ChannelPayload`,
  `ChannelAddresses['${id}']`,
  `ChannelPayloads['${id}']`,
];

/**
 * Channels match by id (the generated names come from it); a changed address is a change of the
 * channel. A channel whose id is gone while a new id has the same address was renamed: the wire is
 * the same, only the generated names move.
 */
export function compareChannels(before: ApiModel, after: ApiModel): Change[] {
  const afterById = new Map(after.channels.map((c) => [c.id, c]));
  const beforeIds = new Set(before.channels.map((c) => c.id));
  const renamedTo = new Map<string, ChannelModel>();
  for (const old of before.channels) {
    if (afterById.has(old.id)) continue;
    const twin = after.channels.find(
      (c) => c.address === old.address && !beforeIds.has(c.id) && ![...renamedTo.values()].includes(c),
    );
    if (twin) renamedTo.set(old.id, twin);
  }
  const renamedIds = new Set([...renamedTo.values()].map((c) => c.id));
  const changes: Change[] = [];
  for (const old of before.channels) {
    const twin = renamedTo.get(old.id);
    const now = afterById.get(old.id) ?? twin;
    if (twin)
      changes.push(
        change(
          'channel.renamed',
          `channel ${old.id}`,
          `id ${old.id} → ${twin.id} (address \`${old.address}\` unchanged)`,
          { names: channelNames(old.id) },
        ),
      );
    if (!now)
      changes.push(
        change('channel.removed', `channel ${old.id}`, `\`${old.address}\` removed`, { names: channelNames(old.id) }),
      );
    else changes.push(...compareChannel(old, now, before, after));
  }
  for (const c of after.channels)
    if (!beforeIds.has(c.id) && !renamedIds.has(c.id))
      changes.push(change('channel.added', `channel ${c.id}`, `\`${c.address}\` added`));
  return changes;
}

function compareChannel(old: ChannelModel, now: ChannelModel, before: ApiModel, after: ApiModel): Change[] {
  const subject = `channel ${now.id}`;
  // An address change shows in the builder's parameters and return type, the address type and its entry in
  // ChannelAddresses.
  const address = [`channels.${now.id}`, `${pascal(now.id)}Address`, `ChannelAddresses['${now.id}']`];
  const changes: Change[] = [];
  if (old.access !== now.access)
    changes.push(
      change(
        now.access === 'private' ? 'channel.made-private' : 'channel.made-public',
        subject,
        `${old.access} → ${now.access}`,
      ),
    );
  changes.push(...addressChanges(old, now, subject, address));
  for (const p of now.parameters) {
    const q = old.parameters.find((x) => x.name === p.name);
    if (q) changes.push(...parameterValueChanges(q, p, `${subject}, parameter ${p.name}`, address));
  }
  changes.push(...payloadChanges(old, now, before, after));
  return changes;
}

/** Parameters added to or removed from the address, or (the same parameters) the address written otherwise. */
function addressChanges(old: ChannelModel, now: ChannelModel, subject: string, address: string[]): Change[] {
  const { added, removed } = listDelta(
    old.parameters.map((p) => p.name),
    now.parameters.map((p) => p.name),
  );
  const changes = [
    ...added.map((p) => change('channel.parameter-added', subject, `parameter {${p}} added`, { names: address })),
    ...removed.map((p) => change('channel.parameter-removed', subject, `parameter {${p}} removed`, { names: address })),
  ];
  if (added.length === 0 && removed.length === 0 && old.address !== now.address)
    changes.push(
      change('channel.address-changed', subject, `\`${old.address}\` → \`${now.address}\``, { names: address }),
    );
  return changes;
}

/** The values a parameter takes: any, or a list, and what the list gained or lost. */
function parameterValueChanges(
  q: ChannelParameterModel,
  p: ChannelParameterModel,
  where: string,
  address: string[],
): Change[] {
  const values = (list: string[]) => list.map((v) => show(v)).join(', ');
  if (q.enum && !p.enum)
    return [change('channel.parameter-opened', where, 'any value is allowed now', { names: address })];
  if (!q.enum && p.enum)
    return [change('channel.parameter-restricted', where, `only ${values(p.enum)}`, { names: address })];
  if (!q.enum || !p.enum) return [];
  const delta = listDelta(q.enum, p.enum);
  return [
    ...(delta.added.length
      ? [change('channel.parameter-value-added', where, `values added: ${values(delta.added)}`, { names: address })]
      : []),
    ...(delta.removed.length
      ? [
          change('channel.parameter-value-removed', where, `values removed: ${values(delta.removed)}`, {
            names: address,
          }),
        ]
      : []),
  ];
}

/**
 * What the channel pushes. Of a channel of several messages, each message is matched and compared
 * (compare-messages.ts); otherwise another record, or an array where there was none, is one change.
 */
function payloadChanges(old: ChannelModel, now: ChannelModel, before: ApiModel, after: ApiModel): Change[] {
  const messagesBefore = messagesOf(old);
  const messagesAfter = messagesOf(now);
  if (messagesBefore && messagesAfter) return compareMessages(now.id, messagesBefore, messagesAfter, before, after);
  if (old.payload.record === now.payload.record && old.payload.array === now.payload.array) return [];
  const shape = (c: ChannelModel, messages: readonly unknown[] | null) =>
    messages
      ? `one of ${messages.length} messages`
      : `${c.payload.array ? 'array of ' : ''}${c.payload.record ?? 'an inline schema'}`;
  return [
    change(
      'channel.payload-changed',
      `channel ${now.id}`,
      `${shape(old, messagesBefore)} → ${shape(now, messagesAfter)}`,
      {
        names: [`${pascal(now.id)}ChannelPayload`, `ChannelPayloads['${now.id}']`],
      },
    ),
  ];
}
