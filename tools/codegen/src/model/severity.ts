/**
 * How bad a change between two specs is for one side: the word the diff gives and the docs' Changes
 * page shows. Here, below both, so that neither imports the other.
 */
export type Severity = 'breaking' | 'dangerous' | 'safe';

/** The severities, worst first: the order reports and the Changes page group by. */
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];
