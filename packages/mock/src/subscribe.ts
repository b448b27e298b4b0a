/**
 * Which of a channel's send operations is the subscription message the spec describes. AsyncAPI has no
 * word for it; the mock reads the spec's own words: an operation whose id, one of whose message keys, or
 * one of whose constants (Kraken's `event: subscribe`) says "subscribe" subscribes, one that says
 * "unsubscribe" unsubscribes (docs/mock.md, "Pushes").
 */
import type { MessageKit } from './messages';
import type { MockOperation } from './mock-model';

export type SubscriptionKind = 'subscribe' | 'unsubscribe' | null;

export function subscriptionKind(op: MockOperation, kit: MessageKit): SubscriptionKind {
  const words = [op.id];
  for (const id of op.messages) {
    const m = kit.message(id);
    words.push(m.key);
    for (const d of m.discriminators) for (const v of d.values) if (typeof v === 'string') words.push(v);
  }
  if (words.some((w) => /unsubscri/i.test(w))) return 'unsubscribe';
  if (words.some((w) => /subscri/i.test(w))) return 'subscribe';
  return null;
}
