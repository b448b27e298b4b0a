/**
 * Seeded random streams. Every consumer (each instrument's walk, the simulated takers, the ids of
 * each kind of record, each producer) draws from its own stream, derived from the seed and the
 * stream's name, so one consumer's draws never shift another's: a seed gives the same synthetic
 * trades whatever is subscribed or generated.
 */

/** A random stream: uniform numbers in [0, 1). */
export type Random = () => number;

/** A small, fast, seedable PRNG (mulberry32). */
export function prng(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: a stable 32-bit number to mix a stream's name into the seed. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The named streams of one seed; asking twice for a name gives the same stream. */
export class Streams {
  private readonly made = new Map<string, Random>();
  /**
   * In a fleet (the `redis` option), the streams of ids and takers are per instrument and ownership
   * epoch (the scope this gives): each instrument's owner draws its own, so ids never repeat across
   * the fleet and a seed gives each instrument the same records whichever member owns it. Null alone.
   */
  scope: ((instrument: string) => string) | null = null;

  constructor(private readonly seed: number) {}

  /** The stream name for one instrument's records: the name alone, or scoped to it in a fleet. */
  private scoped(name: string, instrument?: string): string {
    return instrument !== undefined && this.scope ? `${name} ${this.scope(instrument)}` : name;
  }

  /** The stream of this name for one instrument (the same as of(name) outside a fleet). */
  ofInstrument(name: string, instrument: string): Random {
    return this.of(this.scoped(name, instrument));
  }

  /** The stream of this name. */
  of(name: string): Random {
    let r = this.made.get(name);
    if (!r) {
      r = prng(fnv1a(`${this.seed}/${name}`));
      this.made.set(name, r);
    }
    return r;
  }

  /** A UUID v4 drawn from the stream of this name, so ids repeat across runs with the same seed. */
  uuid(name: string, instrument?: string): string {
    return uuidFrom(this.of(this.scoped(name, instrument)));
  }
}

/** A UUID v4 from a random stream. */
export function uuidFrom(r: Random): string {
  let hex = '';
  for (let i = 0; i < 4; i++)
    hex += Math.floor(r() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  const variant = '89ab'[parseInt(hex[16]!, 16) & 3]!;
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}` +
    `-${hex.slice(20, 32)}`
  );
}
