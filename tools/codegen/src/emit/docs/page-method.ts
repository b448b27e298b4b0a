/**
 * One method's section of a methods page (page-api.ts): its facts (transports, auth, rate limits,
 * order flow), params and result, and example frames, over HTTP too. Apart from the page, which only
 * lists the methods and groups.
 */
import type { MethodModel, PayloadModel } from '../../model/types';
import { code, joined, link, rich, tag, type Block, type Inline } from './ir';
import { TRANSPORT_LABEL, type PageKit } from './page-kit';
import { frameCaption, messageLine, namedExamples } from './page-examples';
import { usedFields } from './page-fields';
import { loginLink, signatureLink } from './page-login-links';

/** The facts table of a method: transports, auth, rate-limit class (with budget and rule), order flow, operation id. */
function methodFacts(kit: PageKit, m: MethodModel): Array<[string, Inline[]]> {
  const s = kit.site;
  const rate: Inline[] =
    m.rateLimitClass === null ? ['none'] : [link(s.classRef(m.rateLimitClass), code(m.rateLimitClass))];
  const budget = m.rateLimitBudget ? s.limitRef(m.rateLimitBudget) : null;
  if (budget) rate.push(', budget ', link(budget, code(m.rateLimitBudget!)));
  if (m.rateLimitRule) {
    rate.push(
      ', rule: ',
      ...joined(
        Object.entries(m.rateLimitRule).map(([k, v]) => {
          const ref = s.limitRef(v);
          return [`${k} `, ref ? link(ref, code(v)) : code(v)];
        }),
      ),
    );
  }
  const facts: Array<[string, Inline[]]> = [
    [
      'Transports',
      joined(
        m.transports.map((t) => [
          t === 'http' && m.httpPath ? `HTTP POST ` : TRANSPORT_LABEL[t],
          ...(t === 'http' && m.httpPath ? [code(m.httpPath)] : []),
        ]),
      ),
    ],
    ['Auth', m.auth === 'login' ? [loginLink(kit), ' required'] : ['none']],
    ['Rate-limit class', rate],
  ];
  const signature = signatureLink(kit);
  if (m.orderFlow && m.actionModule)
    facts.push(['Order flow', ['state-changing; carries its own ', signature, ' (module ', code(m.actionModule), ')']]);
  else if (m.orderFlow) facts.push(['Order flow', ['state-changing; authorised by the login, no ', signature]]);
  if (m.source === 'clients')
    facts.push(['Source', ['not in the interface document; served because its public clients call it']]);
  facts.push(['Operation id', [code(m.id)]]);
  return facts;
}

/** One method: transports, auth, rate-limit class, params, result and example frames. */
export function methodSection(kit: PageKit, m: MethodModel): Block[] {
  const s = kit.site;
  return [
    {
      kind: 'h',
      level: 2,
      id: s.method(m).anchor!,
      text: [code(m.name)],
      tags: [
        ...m.transports.map((t) => tag(TRANSPORT_LABEL[t], 'kind')),
        ...kit.markerTags(`#/operations/${m.id}`, m.assumption),
      ],
    },
    ...(m.summary ? [{ kind: 'p', text: rich(m.summary) } as Block] : []),
    ...(m.description ? [{ kind: 'p', text: rich(m.description) } as Block] : []),
    { kind: 'facts', rows: methodFacts(kit, m) },
    ...kit.markers(`#/operations/${m.id}`, m.assumption),
    { kind: 'h', level: 3, id: s.method(m, 'params').anchor!, text: ['Params'] },
    ...payloadSide(kit, 'params', m.params, m.assumedParams),
    ...messageLine('Request message', m.requestMessage),
    { kind: 'h', level: 3, id: s.method(m, 'result').anchor!, text: ['Result'] },
    ...payloadSide(kit, 'result', m.result, m.assumedResult),
    ...messageLine('Reply message', m.replyMessage),
    { kind: 'h', level: 3, id: s.method(m, 'example').anchor!, text: ['Example'] },
    ...methodExamples(kit, m),
  ];
}

/** A method's params or result: the payload, the record assumed where the document leaves it open, the fields used. */
function payloadSide(kit: PageKit, which: 'params' | 'result', p: PayloadModel, assumed: string | null): Block[] {
  const out: Block[] = [{ kind: 'p', text: [which === 'params' ? 'Params: ' : 'Result: ', ...kit.payload(p), '.'] }];
  if (assumed) {
    out.push({
      kind: 'note',
      tone: 'assumption',
      text: [
        'The document leaves the ',
        which,
        ' open; the sandbox and the client use ',
        ...kit.typeLink(assumed),
        '.',
      ],
    });
  } else if (!p.record) out.push(kit.schemaBlock(p.schema, [which === 'params' ? 'Params schema' : 'Result schema']));
  // The record the sandbox and the client use where the document leaves the payload open.
  out.push(...usedFields(kit, assumed ?? p.record));
  return out;
}

/** A method's example request (and the same over HTTP) and reply frames, then its other examples. */
function methodExamples(kit: PageKit, m: MethodModel): Block[] {
  const s = kit.site;
  const ex = kit.examples.methods.get(m.id) ?? { request: null, reply: null };
  const blocks: Block[] = [];
  if (!ex.request && !ex.reply) blocks.push({ kind: 'p', text: ['No example in the spec.'] });
  if (ex.request) {
    blocks.push({
      kind: 'code',
      id: s.example(m, 'params', 0).anchor,
      text: kit.json(ex.request),
      caption: frameCaption('Request', m.paramsExampleInfo?.[0]),
    });
    blocks.push(...httpRequest(kit, m, ex.request));
  }
  if (ex.reply)
    blocks.push({
      kind: 'code',
      id: s.example(m, 'result', 0).anchor,
      text: kit.json(ex.reply),
      caption: frameCaption('Reply', m.resultExampleInfo?.[0]),
    });
  blocks.push(
    ...namedExamples(
      kit,
      'params',
      m.paramsExamples,
      m.paramsExampleInfo,
      ex.request !== null,
      (i) => s.example(m, 'params', i).anchor!,
    ),
    ...namedExamples(
      kit,
      'result',
      m.resultExamples,
      m.resultExampleInfo,
      ex.reply !== null,
      (i) => s.example(m, 'result', i).anchor!,
    ),
  );
  return blocks;
}

/** The example request as an HTTP POST (with the login headers it needs), for a method served over HTTP. */
function httpRequest(kit: PageKit, m: MethodModel, request: unknown): Block[] {
  const http = m.transports.includes('http') ? kit.model.servers.find((x) => x.transport === 'http') : undefined;
  if (!http || !m.httpPath) return [];
  const lines = [`POST ${http.protocol}://${http.host}${m.httpPath}`, 'Content-Type: application/json'];
  if (m.auth === 'login' && kit.model.login) {
    const h = kit.model.login.headers;
    lines.push(
      `${h.wallet}: <wallet>`,
      `${h.timestamp}: <milliseconds>`,
      `${h.signature}: <signature of the timestamp>`,
    );
  }
  return [
    {
      kind: 'code',
      text: [...lines, '', kit.json((request as { params: unknown }).params)].join('\n'),
      caption: ['The same request over HTTP.'],
    },
  ];
}
