/**
 * The group of each method and subscription channel, which the docs site splits its pages by: the
 * name of the first entry of its operation's AsyncAPI `tags` (AsyncAPI's own field, not one of our
 * extensions). Untagged operations have no group; together they form one default group.
 */
import { isRef, type Operation, type Ref } from '../load/spec-types';
import { channelOf, clientAction, type View } from './plain-spec';
import type { SpecReader } from './spec-reader';

/** The name of an operation's first tag (a tag may be a `$ref` to `components/tags`), or undefined. */
export function operationGroup(op: Operation, read: SpecReader): string | undefined {
  const tags = (op as { tags?: unknown }).tags;
  if (!Array.isArray(tags) || tags.length === 0) return undefined;
  const name = read.resolve(tags[0]).name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

/** Each subscription channel's group: that of the first operation the client receives it by which has tags. */
export function channelGroups(
  operations: Record<string, Operation | Ref>,
  view: View,
  read: SpecReader,
): Map<string, string> {
  const groups = new Map<string, string>();
  for (const op of Object.values(operations)) {
    if (isRef(op) || clientAction(op, view) !== 'receive') continue;
    const id = channelOf(op);
    const group = operationGroup(op, read);
    if (id !== null && group !== undefined && !groups.has(id)) groups.set(id, group);
  }
  return groups;
}
