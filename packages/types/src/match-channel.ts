/**
 * The one address matcher: which channel template a filled-in address belongs to, and the parameter
 * values it carries. The generator (for the spec's x-address examples and the docs), the client, the
 * sandbox and the conformance runner all match through here, so they accept the same addresses.
 *
 * This module imports nothing, generated or not: the code generator uses it before anything is
 * generated. `matchChannel` over this API's own table is in `./channel-lookup`.
 */

/** A channel template: its address with `{parameter}` holes, and its parameters (enumerated ones with their values). */
export interface ChannelTemplate {
  readonly address: string;
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly enum: ReadonlyArray<string> | null }>;
}

/** A filled-in address matched to its template, with the parameter values it carries. */
export interface TemplateMatch<T extends ChannelTemplate = ChannelTemplate> {
  channel: T;
  params: Record<string, string>;
}

/**
 * What a parameter that is not enumerated may hold: one dot-separated segment, not empty, with no
 * white space or control characters (a dot separates segments; a blank is never part of a name).
 */
const FREE_SEGMENT = '([^.\\s\\u0000-\\u001f\\u007f]+)';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The parameter names of a template, in the order they stand in its address. */
export function templateParameters(address: string): string[] {
  return [...address.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * A template as a regular expression: literal text as is, an enumerated parameter as one of its
 * values, any other parameter as one free segment; captures in the order of `templateParameters`.
 */
export function templatePattern(template: ChannelTemplate): RegExp {
  const source = template.address.replace(/\{([^}]+)\}|[^{]+/g, (whole, name?: string) => {
    if (name === undefined) return escape(whole);
    const values = template.parameters.find((p) => p.name === name)?.enum;
    return values ? `(${values.map(escape).join('|')})` : FREE_SEGMENT;
  });
  return new RegExp(`^${source}$`);
}

/** Literal characters plus a weight per enumerated parameter: the higher, the more specific the template. */
function specificity(template: ChannelTemplate): number {
  const literal = template.address.replace(/\{[^}]+\}/g, '').length;
  const enumerated = templateParameters(template.address).filter(
    (n) => template.parameters.find((p) => p.name === n)?.enum,
  ).length;
  return literal + 100 * enumerated;
}

/**
 * A matcher over a list of templates: the most specific template an address fits wins (a literal
 * `auctions.watch` before `{a}.{b}`), so the answer does not depend on the order of the list.
 */
export function channelMatcher<T extends ChannelTemplate>(
  templates: ReadonlyArray<T>,
): (address: string) => TemplateMatch<T> | null {
  const compiled = templates
    .map((channel) => ({
      channel,
      regex: templatePattern(channel),
      names: templateParameters(channel.address),
      score: specificity(channel),
    }))
    .sort((a, b) => b.score - a.score);
  return (address) => {
    if (typeof address !== 'string') return null;
    for (const c of compiled) {
      const m = c.regex.exec(address);
      if (m) return { channel: c.channel, params: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!])) };
    }
    return null;
  };
}

/** Fill an address template: `fillAddress('trades.{instrument_name}', { instrument_name: 'ETH-PERP' })`. */
export function fillAddress(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = Object.hasOwn(params, name) ? params[name] : undefined;
    if (v === undefined) throw new Error(`fillAddress: no value for {${name}} in ${template}`);
    return String(v);
  });
}
