import { channelTable, type ChannelEntry } from './generated/tables.gen';

/** A filled-in address matched to its channel, with the parameter values it carries. */
export interface ChannelMatch {
  channel: ChannelEntry;
  params: Record<string, string>;
}

type Compiled = { channel: ChannelEntry; regex: RegExp; names: string[]; score: number };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(channel: ChannelEntry): Compiled {
  const names: string[] = [];
  let source = '^';
  let rest: string = channel.address;
  let literal = 0;
  for (const p of channel.parameters) {
    const i = rest.indexOf(`{${p.name}}`);
    source += escape(rest.slice(0, i));
    literal += i;
    // A parameter fills one dot-separated segment; enumerated ones only their values.
    source += p.enum ? `(${p.enum.map(escape).join('|')})` : '([^.]+)';
    names.push(p.name);
    rest = rest.slice(i + p.name.length + 2);
  }
  source += escape(rest) + '$';
  literal += rest.length;
  const score = literal + 100 * channel.parameters.filter((p) => p.enum).length;
  return { channel, regex: new RegExp(source), names, score };
}

let compiled: Compiled[] | null = null;

/** The channel a filled-in address belongs to, or null when it matches no template (most specific wins). */
export function matchChannel(address: string): ChannelMatch | null {
  compiled ??= channelTable.map(compile).sort((a, b) => b.score - a.score);
  for (const c of compiled) {
    const m = c.regex.exec(address);
    if (m) return { channel: c.channel, params: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!])) };
  }
  return null;
}

/** Fill an address template: `fillAddress('trades.{instrument_name}', { instrument_name: 'ETH-PERP' })`. */
export function fillAddress(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`fillAddress: no value for {${name}} in ${template}`);
    return String(v);
  });
}
