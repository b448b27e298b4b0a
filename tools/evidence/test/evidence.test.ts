/**
 * The spec against the venue's public clients (spec/evidence): every method derive-ts 3.0.13 types and
 * every method and channel ccxt 4.5.84 uses is in the spec, and every difference, field by field, has a
 * written decision (spec/evidence/decisions.yaml). A spec edit that drifts from the venue fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { modelFromSpec, type ApiModel } from '@exchange-api/codegen';
import { readDecisions, decisionName, type Decision } from '../src/decisions';
import { EVIDENCE_FILES, loadEvidence } from '../src/load-evidence';
import { REPO_ROOT } from '../src/paths';
import { compareEvidence, countsOf, summaryLine, undecidedLines, type EvidenceReport } from '../src/report';

/** The bar for params: at least this share of derive-ts's methods agree outright. */
const PARAMS_BAR = 0.95;
/** The bar for results: at least this share of derive-ts's methods agree outright. */
const RESULTS_BAR = 0.9;

let model: ApiModel;
let decisions: Decision[];
let report: EvidenceReport;
const evidence = loadEvidence();

beforeAll(async () => {
  model = await modelFromSpec(join(REPO_ROOT, 'spec', 'asyncapi.yaml'), REPO_ROOT);
  decisions = readDecisions(EVIDENCE_FILES.decisions);
  report = compareEvidence(model, evidence.derive, evidence.ccxt, decisions);
  console.log(summaryLine(report));
});

describe('the spec holds to the clients’ evidence', () => {
  it('names every method of derive-ts’s EndpointMap and every method ccxt calls', () => {
    const missing = Object.entries(report.methods)
      .filter(([, m]) => !m.inSpec)
      .map(([n]) => n);
    expect(missing).toEqual([]);
    expect(report.ccxtMissing).toEqual([]);
    expect(Object.keys(report.methods).length).toBe(Object.keys(evidence.derive.methods).length);
  });

  it('has every channel of derive-ts’s ChannelSchemaMap, and one for each channel ccxt subscribes to', () => {
    expect(Object.entries(report.channels).filter(([, c]) => !c.inSpec)).toEqual([]);
    expect(report.ccxtChannelsMissing).toEqual([]);
  });

  it('has a written decision for every difference, field by field', () => {
    expect(undecidedLines(report)).toEqual([]);
  });

  it('keeps no decision that covers nothing', () => {
    expect(report.unusedDecisions.map(decisionName)).toEqual([]);
  });

  it('agrees outright on params and results for most methods', () => {
    const c = countsOf(report);
    expect(c.paramsAgree / c.methods).toBeGreaterThanOrEqual(PARAMS_BAR);
    expect(c.resultAgree / c.methods).toBeGreaterThanOrEqual(RESULTS_BAR);
  });

  it('marks every method the document does not show as x-source: clients, over both transports', () => {
    const wrong = model.methods
      .filter((m) => evidence.derive.methods[m.name] && m.source === 'clients')
      .filter((m) => !m.transports.includes('ws') || !m.transports.includes('http') || m.httpPath !== `/v3/${m.name}`)
      .map((m) => m.name);
    expect(wrong).toEqual([]);
    const auth = model.methods.filter((m) => m.name.startsWith('private/') && m.auth !== 'login').map((m) => m.name);
    expect(auth).toEqual([]);
  });
});

describe('the comparison can fail', () => {
  it('reports a method of the evidence the spec lacks', () => {
    const derive = {
      ...evidence.derive,
      methods: {
        ...evidence.derive.methods,
        'private/not_in_spec': { params: { types: ['null'] }, result: { types: ['string'] } },
      },
    } as typeof evidence.derive;
    const r = compareEvidence(model, derive, evidence.ccxt, decisions);
    expect(undecidedLines(r)).toContain('private/not_in_spec: missing from the spec');
  });

  it('reports a field the client sends that the spec does not take, and a result type that differs', () => {
    const order = evidence.derive.methods['public/get_time']!;
    const derive = {
      ...evidence.derive,
      methods: {
        ...evidence.derive.methods,
        'public/get_time': {
          params: { types: ['object'], fields: [{ name: 'zone', required: true, types: ['string'] }] },
          result: { ...order.result, types: ['string'] },
        },
      },
    } as typeof evidence.derive;
    const lines = undecidedLines(compareEvidence(model, derive, evidence.ccxt, decisions));
    expect(lines).toContain('public/get_time params zone: missing: client string, spec absent');
    expect(lines).toContain('public/get_time result (whole): types: client string, spec number');
  });

  it('reports a ccxt method the spec lacks', () => {
    const ccxt = {
      ...evidence.ccxt,
      called: { ...evidence.ccxt.called, rest: [...evidence.ccxt.called.rest, 'public/nope'] },
    };
    expect(compareEvidence(model, evidence.derive, ccxt, decisions).ccxtMissing).toEqual(['public/nope']);
  });
});
