/**
 * Messages and examples as the spec names them: a message's title and summary where it is shown, and
 * every example of a message with its name and summary (the wire frame above shows the first one).
 */
import type { ExampleInfo, MessageInfo } from '../../model/types';
import { code, rich, type Block, type Inline } from './ir';
import type { PageKit } from './page-kit';

/** Text from the spec ending a sentence: its own final period (or other mark) kept, none added to it. */
export function sentence(text: string): Inline[] {
  const out = rich(text);
  const last = out[out.length - 1];
  return typeof last === 'string' && /[.!?:]$/.test(last) ? out : [...out, '.'];
}

/** `Message: <title> (name). <summary>`, or nothing when the spec says neither. */
export function messageLine(label: string, info: MessageInfo | undefined): Block[] {
  if (!info || (!info.title && !info.summary)) return [];
  const text: Inline[] = [`${label}: `];
  if (info.title) text.push({ strong: [info.title] });
  if (info.name) text.push(' (', code(info.name), ')');
  if (info.summary) text.push(info.title ? '. ' : '', ...rich(info.summary));
  return [{ kind: 'p', text }];
}

/** How an example is called on the page: its name and summary, or its number; one final period. */
export function exampleCaption(what: string, i: number, info: ExampleInfo | undefined): Inline[] {
  const name = info?.name ? [code(info.name)] : [`${what} example ${i + 1}`];
  return info?.summary ? [...name, ': ', ...sentence(info.summary)] : [...name, '.'];
}

/**
 * The examples of a message after the first, each with its name, its summary and its own anchor: the
 * first is shown above in its wire frame, its name and summary in the frame's caption (`firstShown`),
 * which keeps the site within its weight.
 */
export function namedExamples(
  kit: PageKit,
  what: string,
  payloads: unknown[],
  infos: ExampleInfo[] | undefined,
  firstShown: boolean,
  idOf: (i: number) => string,
): Block[] {
  const from = firstShown ? 1 : payloads.length === 1 && !infos?.[0]?.name && !infos?.[0]?.summary ? 1 : 0;
  const rest = payloads.slice(from);
  if (rest.length === 0) return [];
  return [
    { kind: 'p', text: [{ strong: [`More ${what} examples in the spec`] }, ` (${rest.length}):`] },
    ...rest.map((p, j): Block => ({
      kind: 'code',
      id: idOf(from + j),
      text: kit.json(p, undefined, 120),
      caption: exampleCaption(what, from + j, infos?.[from + j]),
    })),
  ];
}

/** The caption of a frame built from the spec's first example: its name and summary when it has them. */
export function frameCaption(lead: string, info: ExampleInfo | undefined): Inline[] {
  if (!info?.name && !info?.summary) return [`${lead}, from the spec's example.`];
  return [`${lead}, from the spec's example `, ...exampleCaption('', 0, info)];
}
