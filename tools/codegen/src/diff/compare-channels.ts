/** Changes to the subscription channels: address, access, parameters and their values, payload. */
import type { ApiModel, ChannelModel } from '../model/types';
import { pascal } from '../emit/naming';
import { change, listDelta, show, type Change } from './change';

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
    else changes.push(...compareChannel(old, now));
  }
  for (const c of after.channels)
    if (!beforeIds.has(c.id) && !renamedIds.has(c.id))
      changes.push(change('channel.added', `channel ${c.id}`, `\`${c.address}\` added`));
  return changes;
}

function compareChannel(old: ChannelModel, now: ChannelModel): Change[] {
  const subject = `channel ${now.id}`;
  // An address change shows in the builder's parameters and return type, the address type and its entry in ChannelAddresses.
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
  const oldParams = old.parameters.map((p) => p.name);
  const newParams = now.parameters.map((p) => p.name);
  const { added, removed } = listDelta(oldParams, newParams);
  for (const p of added)
    changes.push(change('channel.parameter-added', subject, `parameter {${p}} added`, { names: address }));
  for (const p of removed)
    changes.push(change('channel.parameter-removed', subject, `parameter {${p}} removed`, { names: address }));
  if (added.length === 0 && removed.length === 0 && old.address !== now.address)
    changes.push(
      change('channel.address-changed', subject, `\`${old.address}\` → \`${now.address}\``, { names: address }),
    );
  for (const p of now.parameters) {
    const q = old.parameters.find((x) => x.name === p.name);
    if (!q) continue;
    const where = `${subject}, parameter ${p.name}`;
    if (q.enum && !p.enum)
      changes.push(change('channel.parameter-opened', where, 'any value is allowed now', { names: address }));
    else if (!q.enum && p.enum)
      changes.push(
        change('channel.parameter-restricted', where, `only ${p.enum.map((v) => show(v)).join(', ')}`, {
          names: address,
        }),
      );
    else if (q.enum && p.enum) {
      const delta = listDelta(q.enum, p.enum);
      if (delta.added.length)
        changes.push(
          change(
            'channel.parameter-value-added',
            where,
            `values added: ${delta.added.map((v) => show(v)).join(', ')}`,
            { names: address },
          ),
        );
      if (delta.removed.length)
        changes.push(
          change(
            'channel.parameter-value-removed',
            where,
            `values removed: ${delta.removed.map((v) => show(v)).join(', ')}`,
            { names: address },
          ),
        );
    }
  }
  if (old.payload.record !== now.payload.record || old.payload.array !== now.payload.array) {
    const shape = (c: ChannelModel) => `${c.payload.array ? 'array of ' : ''}${c.payload.record ?? 'an inline schema'}`;
    changes.push(
      change('channel.payload-changed', subject, `${shape(old)} → ${shape(now)}`, {
        names: [`${pascal(now.id)}ChannelPayload`, `ChannelPayloads['${now.id}']`],
      }),
    );
  }
  return changes;
}
