/**
 * The RFQ options (`rfq` of the sandbox's options, market/rfq-*.ts uses them): how long an RFQ stays
 * open, and the simulated maker that answers every RFQ with a signed quote on each side.
 */
import { SandboxOptionsError } from './options-error';
import { isObject, kindOf, num, onlyKeys } from './options-fields';

/** `rfq` as given. */
export interface RfqConfig {
  /** How long an RFQ stays open for quotes, in ms of the sandbox clock. Default 600 000 (derive-ts's window). */
  lifetimeMs?: number;
  maker?: {
    /** Default true: every RFQ gets a quote on each side. */
    enabled?: boolean;
    /** How long after an RFQ the maker quotes it, in ms of the sandbox clock. Default 0: at once. */
    delayMs?: number;
    /** The maker's edge off the mark on each leg, drawn per RFQ from [minEdgeBps, maxEdgeBps]. Default 2 and 20. */
    minEdgeBps?: number;
    maxEdgeBps?: number;
  };
}

/** `rfq` with every default filled in. */
export interface RfqSettings {
  lifetimeMs: number;
  maker: { enabled: boolean; delayMs: number; minEdgeBps: number; maxEdgeBps: number };
}

/** Check `rfq` and fill in its defaults; a bad key is refused by name. */
export function resolveRfq(raw: unknown = {}): RfqSettings {
  if (!isObject(raw)) throw new SandboxOptionsError('rfq', `must be an object (got ${kindOf(raw)})`);
  onlyKeys('rfq', raw, ['lifetimeMs', 'maker']);
  const maker = raw.maker ?? {};
  if (!isObject(maker)) throw new SandboxOptionsError('rfq.maker', `must be an object (got ${kindOf(maker)})`);
  onlyKeys('rfq.maker', maker, ['enabled', 'delayMs', 'minEdgeBps', 'maxEdgeBps']);
  if (maker.enabled !== undefined && typeof maker.enabled !== 'boolean')
    throw new SandboxOptionsError('rfq.maker.enabled', `must be a boolean (got ${kindOf(maker.enabled)})`);
  const pick = (key: string, v: unknown, dflt: number, min: number, max: number) =>
    v === undefined ? dflt : num(key, v, { int: true, min, max });
  const minEdgeBps = pick('rfq.maker.minEdgeBps', maker.minEdgeBps, 2, 0, 5000);
  const maxEdgeBps = pick('rfq.maker.maxEdgeBps', maker.maxEdgeBps, Math.max(20, minEdgeBps), 0, 5000);
  if (maxEdgeBps < minEdgeBps)
    throw new SandboxOptionsError(
      'rfq.maker.maxEdgeBps',
      `must be at least minEdgeBps ${minEdgeBps} (got ${maxEdgeBps})`,
    );
  return {
    lifetimeMs: pick('rfq.lifetimeMs', raw.lifetimeMs, 600_000, 1000, 86_400_000),
    maker: {
      enabled: (maker.enabled as boolean | undefined) ?? true,
      delayMs: pick('rfq.maker.delayMs', maker.delayMs, 0, 0, 86_400_000),
      minEdgeBps,
      maxEdgeBps,
    },
  };
}
