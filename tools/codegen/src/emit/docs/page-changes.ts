/**
 * The "Changes" page (`exchange-api docs --since <old spec>`): what changed since an earlier version of
 * the spec and for whom it breaks, from the same diff as `exchange-api diff`.
 */
import { SEVERITIES, type Severity } from '../../model/severity';
import { code, rich, type Block, type Page } from './ir';

/**
 * A change as the page shows it: what it reads of the diff's Change (diff/change.ts). The caller
 * passes the diff's result in, so that the emitters never import the diff.
 */
export interface ShownChange {
  rule: string;
  subject: string;
  detail: string;
  client: Severity;
  server: Severity;
  why: string;
  /** Generated TypeScript names that change or disappear. */
  names: readonly string[];
}

/** What the page shows: the version compared against, and the changes. */
export interface DocsChanges {
  since: { file: string; version: string };
  changes: readonly ShownChange[];
}

export const CHANGES_PAGE = 'changes';

export function changesPage(input: DocsChanges, version: string): Page {
  const { changes } = input;
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Changes'] },
    {
      kind: 'p',
      text: [
        `Since version ${input.since.version} (`,
        code(input.since.file),
        `), ${changes.length} change${changes.length === 1 ? '' : 's'} to version ` +
          `${version}, each classified for clients (does a program built against the ` +
          `old spec still work?) and for servers (does a server built for the old spec ` +
          `still conform?).`,
      ],
    },
  ];
  if (changes.length === 0) blocks.push({ kind: 'p', text: ['Nothing that clients or servers see has changed.'] });
  for (const side of ['client', 'server'] as const) {
    for (const severity of SEVERITIES) {
      const group = changes.filter((c) => c[side] === severity);
      if (group.length === 0) continue;
      blocks.push({
        kind: 'h',
        level: 2,
        id: `${side}-${severity}`,
        text: [`${side === 'client' ? 'Clients' : 'Servers'}: ${severity} (${group.length})`],
      });
      blocks.push({
        kind: 'table',
        head: ['Rule', 'What', 'Change', 'Why'],
        rows: group.map((c) => ({
          cells: [[code(c.rule)], rich(c.subject), rich(c.detail), severity === 'safe' ? [] : rich(c.why)],
        })),
      });
    }
  }
  const names = [...new Set(changes.filter((c) => c.client === 'breaking').flatMap((c) => c.names))];
  if (names.length) {
    blocks.push({
      kind: 'h',
      level: 2,
      id: 'generated-names',
      text: ['Generated TypeScript names to fix after regenerating'],
    });
    blocks.push({ kind: 'list', items: names.map((n) => ({ text: [code(n)] })), chips: true });
  }
  return { path: CHANGES_PAGE, title: 'Changes', nav: 'changes', blocks };
}
