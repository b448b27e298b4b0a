import type { ApiModel } from '@exchange-api/codegen';
import { compareShapes, type Disagreement, type Part } from './agreement';
import { decisionFor, type Decision } from './decisions';
import { SpecShapes } from './spec-shape';
import type { CcxtEvidence, DeriveTsEvidence, Shape } from './shape';

/** A disagreement and the decision that covers it, if any. */
export interface Judged extends Disagreement {
  decided: boolean;
}

/** One side of one method or channel. */
export interface PartReport {
  disagreements: Judged[];
  /** No disagreement at all. */
  agrees: boolean;
  /** Every disagreement has a written decision. */
  decided: boolean;
}

/** The comparison of the spec with the evidence. */
export interface EvidenceReport {
  methods: Record<string, { inSpec: boolean; params?: PartReport; result?: PartReport }>;
  channels: Record<string, { inSpec: boolean; data?: PartReport }>;
  /** Methods ccxt calls that the spec lacks. */
  ccxtMissing: string[];
  /** ccxt's channel patterns that no channel of the spec matches. */
  ccxtChannelsMissing: string[];
  /** Decisions that cover nothing (stale). */
  unusedDecisions: Decision[];
}

/**
 * Holds the spec's model against the clients' evidence: every derive-ts method and channel, field by
 * field, and every method and channel ccxt uses, by name.
 */
export function compareEvidence(
  model: ApiModel,
  derive: DeriveTsEvidence,
  ccxt: CcxtEvidence,
  decisions: Decision[],
): EvidenceReport {
  const shapes = new SpecShapes(model.schemas);
  const used = new Set<Decision>();
  const judge = (target: string, part: Part, evidence: Shape, spec: Shape): PartReport => {
    const disagreements = compareShapes(evidence, spec, derive.records, shapes, part).map((d) => {
      const decision = decisionFor(decisions, target, part, d);
      if (decision) used.add(decision);
      return { ...d, decided: decision !== undefined };
    });
    return { disagreements, agrees: disagreements.length === 0, decided: disagreements.every((d) => d.decided) };
  };
  const byName = new Map(model.methods.map((m) => [m.name, m]));
  const methods: EvidenceReport['methods'] = {};
  for (const [name, ev] of Object.entries(derive.methods).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const m = byName.get(name);
    if (!m) {
      methods[name] = { inSpec: false };
      continue;
    }
    const params = m.assumedParams ? { $ref: `#/definitions/${m.assumedParams}` } : m.params.schema;
    const result = m.assumedResult ? { $ref: `#/definitions/${m.assumedResult}` } : m.result.schema;
    methods[name] = {
      inSpec: true,
      params: judge(name, 'params', paramsOf(ev.params), shapes.shape(params)),
      result: judge(name, 'result', ev.result, shapes.shape(result)),
    };
  }
  const byAddress = new Map(model.channels.map((c) => [c.address, c]));
  const channels: EvidenceReport['channels'] = {};
  for (const [address, ev] of Object.entries(derive.channels).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const c = byAddress.get(address);
    channels[address] = c
      ? { inSpec: true, data: judge(address, 'data', ev.data, shapes.shape(c.payload.schema)) }
      : { inSpec: false };
  }
  const ccxtMissing = [...ccxt.called.rest, ...ccxt.called.ws].filter((n) => !byName.has(n));
  const templates = model.channels.map(
    (c) => new RegExp(`^${c.address.replace(/[.]/g, '\\.').replace(/\{[a-z_]+\}/g, '(\\{\\}|[^.]+)')}$`),
  );
  const ccxtChannelsMissing = ccxt.channels.filter((p) => !templates.some((t) => t.test(p)));
  return {
    methods,
    channels,
    ccxtMissing,
    ccxtChannelsMissing,
    unusedDecisions: decisions.filter((d) => !used.has(d)),
  };
}

/** Params a client sends as nothing (`null`) are an empty object to the spec. */
function paramsOf(s: Shape): Shape {
  return s.types.length === 1 && s.types[0] === 'null' ? { types: ['object'], fields: [] } : s;
}

const pct = (n: number, d: number) => (d === 0 ? '100.0' : ((100 * n) / d).toFixed(1));

/** The counts of a report. */
export function countsOf(r: EvidenceReport) {
  const all = Object.values(r.methods);
  const inSpec = all.filter((m) => m.inSpec);
  const channels = Object.values(r.channels);
  return {
    methods: all.length,
    named: inSpec.length,
    paramsAgree: inSpec.filter((m) => m.params!.agrees).length,
    paramsDecided: inSpec.filter((m) => !m.params!.agrees && m.params!.decided).length,
    resultAgree: inSpec.filter((m) => m.result!.agrees).length,
    resultDecided: inSpec.filter((m) => !m.result!.agrees && m.result!.decided).length,
    undecided: inSpec.filter((m) => !m.params!.decided || !m.result!.decided).length,
    channels: channels.length,
    channelsNamed: channels.filter((c) => c.inSpec).length,
    channelsAgree: channels.filter((c) => c.data?.agrees).length,
    channelsDecided: channels.filter((c) => c.data && !c.data.agrees && c.data.decided).length,
  };
}

/** The summary line: counts and percentages against the bar. */
export function summaryLine(r: EvidenceReport): string {
  const c = countsOf(r);
  return (
    `derive-ts methods ${c.named}/${c.methods} in the spec; ` +
    `params agree ${c.paramsAgree} (${pct(c.paramsAgree, c.methods)}%), decided ${c.paramsDecided}; ` +
    `results agree ${c.resultAgree} (${pct(c.resultAgree, c.methods)}%), decided ${c.resultDecided}; ` +
    `undecided ${c.undecided}; channels ${c.channelsNamed}/${c.channels} in the spec, ` +
    `agree ${c.channelsAgree}, decided ${c.channelsDecided}; ` +
    `ccxt methods missing ${r.ccxtMissing.length}, channels missing ${r.ccxtChannelsMissing.length}`
  );
}

/** Every disagreement without a decision, one line each. */
export function undecidedLines(r: EvidenceReport): string[] {
  const lines: string[] = [];
  for (const [name, m] of Object.entries(r.methods)) {
    if (!m.inSpec) lines.push(`${name}: missing from the spec`);
    for (const part of ['params', 'result'] as const) {
      for (const d of m[part]?.disagreements ?? []) if (!d.decided) lines.push(`${name} ${part} ${line(d)}`);
    }
  }
  for (const [address, c] of Object.entries(r.channels)) {
    if (!c.inSpec) lines.push(`channel ${address}: missing from the spec`);
    for (const d of c.data?.disagreements ?? []) if (!d.decided) lines.push(`channel ${address} data ${line(d)}`);
  }
  for (const n of r.ccxtMissing) lines.push(`${n}: called by ccxt, missing from the spec`);
  for (const n of r.ccxtChannelsMissing) lines.push(`channel ${n}: subscribed by ccxt, no channel of the spec matches`);
  return lines;
}

const line = (d: Disagreement) => `${d.path || '(whole)'}: ${d.kind}: client ${d.evidence}, spec ${d.spec}`;
