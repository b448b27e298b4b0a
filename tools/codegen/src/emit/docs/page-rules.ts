/** The errors, limits, login and "left open" pages. */
import type { ActionSignatureModel, LimitModel, LoginModel } from '../../model/types';
import { code, joined, link, prettyJson, rich, tag, type Block, type Inline, type Page } from './ir';
import { plural, type PageKit } from './page-kit';
import { PAGES } from './site';

/** The errors page: reserved ranges and every code with its condition and data. */
export function errorsPage(kit: PageKit): Page {
  const { reserved, codes } = kit.model.errors;
  const errorObject = kit.model.roles.errorObject;
  const rpcError = errorObject ? kit.site.type(errorObject) : undefined;
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Errors'] },
    {
      kind: 'p',
      text: [
        'A failed request is answered with a JSON-RPC error object',
        ...(rpcError ? [' (', ...kit.typeLink(rpcError.name), ')'] : []),
        ' carrying ',
        code('code'),
        ', ',
        code('message'),
        ' and, for some codes, ',
        code('data'),
        '.',
      ],
    },
    ...kit.markers('#/x-errors', undefined),
    { kind: 'h', level: 2, id: 'reserved', text: ['Reserved ranges'] },
    reserved.length === 0
      ? { kind: 'p', text: ['None.'] }
      : {
          kind: 'table',
          head: ['From', 'To', 'Purpose'],
          rows: reserved.map((r) => ({ cells: [[code(String(r.from))], [code(String(r.to))], rich(r.purpose)] })),
        },
    { kind: 'h', level: 2, id: 'codes', text: ['Codes'] },
    {
      kind: 'table',
      head: ['Code', 'Name', 'Message', 'Kind', 'HTTP', 'When', 'Data'],
      rows: codes.map((e) => ({
        id: kit.site.errorRef(e.code).anchor!,
        cells: [
          [code(String(e.code))],
          e.name ? [code(e.name)] : [],
          [
            e.message,
            ...(e.assumption ? [' ', link(kit.site.assumptionRef(e.assumption), tag('assumption', 'assumption'))] : []),
          ],
          e.kind ? [e.kind] : [],
          e.httpStatus === undefined ? [] : [String(e.httpStatus)],
          rich(e.condition),
          [
            ...(e.data ? [code(e.data)] : []),
            ...(e.dataPattern ? [' pattern ', code(e.dataPattern)] : []),
            ...(e.textFramePrefix ? ['text frame starts ', code(e.textFramePrefix)] : []),
          ],
        ],
      })),
    },
  ];
  return { path: PAGES.errors, title: 'Errors', nav: 'errors', blocks };
}

/** A limit's numbers for people, by kind. */
function limitValues(kit: PageKit, l: LimitModel): string {
  switch (l.kind) {
    case 'window':
      return `${l.tps ?? '?'} per second; ${l.points ?? '?'} points per ${(l.windowMs ?? 0) / 1000} s`;
    case 'connections':
      return `at most ${l.max ?? '?'}`;
    case 'bucket':
      return (
        `refills ${l.refillPerSecond ?? '?'} per second, capacity ${l.capacity ?? '?'}` +
        (l.instrumentTypes ? `; ${l.instrumentTypes.join(', ')}` : '')
      );
    case 'size':
      return `${l.maxBytes ?? '?'} bytes`;
  }
}

/** The limits page: rate-limit classes and every limit. */
export function limitsPage(kit: PageKit): Page {
  const s = kit.site;
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Limits'] },
    {
      kind: 'p',
      text: [
        'Reference values from the spec. A deployment may configure its own; where ' +
          'it reports them, the live values are authoritative.',
      ],
    },
    { kind: 'h', level: 2, id: 'classes', text: ['Rate-limit classes'] },
    {
      kind: 'table',
      head: ['Class', 'Applies to', 'Budget', 'Methods in this spec'],
      rows: kit.model.rateLimitClasses.map((c) => {
        const budget = s.limitRef(c.budget);
        const methods = kit.model.methods.filter((x) => x.rateLimitClass === c.name);
        return {
          id: s.classRef(c.name).anchor!,
          cells: [
            [code(c.name), ...(c.default ? [' ', tag('default', 'kind')] : [])],
            [...rich(c.appliesTo), ...(c.methodCount !== null ? [` (${c.methodCount} methods of the service)`] : [])],
            [budget ? link(budget, code(c.budget)) : code(c.budget)],
            methods.length ? joined(methods.map((x) => [link(s.method(x), code(x.name))])) : ['none'],
          ],
        };
      }),
    },
    { kind: 'h', level: 2, id: 'limits', text: ['Limits'] },
    {
      kind: 'table',
      head: ['Limit', 'Kind', 'Scope', 'Value', 'Notes'],
      rows: kit.model.limits.map((l, i) => ({
        id: s.limitRef(l.id)!.anchor!,
        cells: [
          [code(l.id), ' ', l.title],
          [l.kind],
          [l.scope],
          [limitValues(kit, l)],
          kit.markerTags(`#/x-limits/${i}`, l.assumption),
        ],
      })),
    },
    ...kit.model.limits.flatMap((l, i) =>
      kit
        .markers(`#/x-limits/${i}`, undefined)
        .map((b) => (b.kind === 'note' ? { ...b, text: [code(l.id), ': ', ...b.text] } : b)),
    ),
  ];
  return { path: PAGES.limits, title: 'Limits', nav: 'limits', blocks };
}

/** The login page: headers, the signed message, freshness, and the action signature. */
export function loginPage(kit: PageKit): Page {
  const login = kit.model.login;
  const sig = kit.model.actionSignature;
  const loginMethods = kit.model.methods.filter((m) => /(^|\/)login$/.test(m.name));
  const blocks: Block[] = [{ kind: 'h', level: 1, text: ['Login'] }];
  if (loginMethods.length)
    blocks.push({
      kind: 'p',
      text: [
        'Log in over WebSocket with ',
        ...joined(loginMethods.map((m) => [link(kit.site.method(m), code(m.name))])),
        '; over HTTP, private requests carry the headers below on every request.',
      ],
    });
  if (!login) blocks.push({ kind: 'p', text: ['This spec describes no login.'] });
  else blocks.push(...loginBlocks(kit, login));
  if (sig) blocks.push(...signatureBlocks(kit, sig));
  return { path: PAGES.login, title: 'Login', nav: 'login', blocks };
}

/** x-login: the headers (and their other names), the signed message, freshness and re-verification. */
function loginBlocks(kit: PageKit, login: LoginModel): Block[] {
  return [
    { kind: 'h', level: 2, id: 'headers', text: ['Headers'] },
    {
      kind: 'table',
      head: ['Header', 'Carries'],
      rows: [
        { cells: [[code(login.headers.wallet)], ['the wallet address']] },
        { cells: [[code(login.headers.timestamp)], ['the signed timestamp']] },
        { cells: [[code(login.headers.signature)], ['the signature']] },
        ...(login.alternateHeaders ?? []).map((h) => ({
          cells: [
            [code(h.wallet), ', ', code(h.timestamp), ', ', code(h.signature)],
            ['the same three values under other names, read too'],
          ],
        })),
      ],
    },
    { kind: 'p', text: [{ strong: ['Signed message. '] }, ...rich(login.message)] },
    { kind: 'h', level: 2, id: 'freshness', text: ['Freshness and re-verification'] },
    {
      kind: 'facts',
      rows: [
        [
          'Freshness window',
          login.freshness
            ? [
                `from ${login.freshness.pastMs / 1000} s before to ${login.freshness.futureMs / 1000}` +
                  ` s after the server's clock; applies to ${login.freshness.appliesTo} logins`,
                ...(login.freshness.assumption
                  ? [' ', link(kit.site.assumptionRef(login.freshness.assumption), tag('assumption', 'assumption'))]
                  : []),
              ]
            : ['not given'],
        ],
        [
          'Re-verification',
          login.reverifyIntervalMs !== null
            ? [`every ${login.reverifyIntervalMs / 1000} s`, ...kit.citing('#/x-login/reverify')]
            : ['not given'],
        ],
      ],
    },
    ...kit.markers('#/x-login', undefined),
  ];
}

/** x-action-signature: the fields signed into, the EIP-712 domain and types, modules, deployments, params hash. */
function signatureBlocks(kit: PageKit, sig: ActionSignatureModel): Block[] {
  return [
    {
      kind: 'h',
      level: 2,
      id: 'action-signature',
      text: ['Action signature'],
      tags: kit.markerTags('#/x-action-signature', sig.assumption),
    },
    {
      kind: 'p',
      text: [
        'State-changing requests carry an EIP-712 signature of the action, in the fields ',
        ...joined(sig.signatureFields.map((f) => [code(f)])),
        '.',
      ],
    },
    ...kit.markers('#/x-action-signature', sig.assumption),
    {
      kind: 'code',
      text: prettyJson({ domain: sig.domain, primaryType: sig.primaryType, types: sig.types }),
      caption: ['Domain and types.'],
    },
    {
      kind: 'code',
      text: prettyJson({ modules: sig.modules ?? {}, deployments: sig.deployments ?? [] }),
      caption: ['Modules (the ABI words of their data) and the deployments a signature may be made for.'],
    },
    { kind: 'p', text: [{ strong: ['Params hash. '] }, ...rich(sig.paramsHash)] },
  ];
}

/** The page of what the document leaves open: every not-shown place and every assumption. */
export function openPage(kit: PageKit): Page {
  const s = kit.site;
  const m = kit.model;
  const place = (pointer: string, label: string): Inline[] => {
    const ref = s.pointerRef(pointer);
    return ref ? [link(ref, label)] : [label];
  };
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Not shown and assumptions'] },
    {
      kind: 'p',
      text: [
        `Everything this reference leaves open, in one place: ${plural(m.notShown.length, 'place')}` +
          ` where the interface document does not show something (the spec keeps them ` +
          `open), and ${plural(m.assumptions.length, 'assumption')}, the choices the ` +
          `spec makes where a working system needs one and the document makes none.`,
      ],
    },
    { kind: 'h', level: 2, id: 'not-shown', text: ['Not shown'] },
    {
      kind: 'table',
      head: ['Where', 'What is left open', 'Spec pointer'],
      rows: m.notShown.map((n) => ({
        id: s.notShownRef(n).anchor!,
        cells: [place(n.pointer, n.where), rich(n.text), [code(n.pointer)]],
      })),
    },
    { kind: 'h', level: 2, id: 'assumptions', text: ['Assumptions'] },
  ];
  for (const a of m.assumptions) {
    const choice = a.choice.trim();
    blocks.push(
      { kind: 'h', level: 3, id: s.assumptionRef(a.id).anchor!, text: [a.title], tags: [tag(a.id, 'assumption')] },
      /^[[{]/.test(choice)
        ? { kind: 'code', text: choice, caption: ['Choice'] }
        : { kind: 'p', text: [{ strong: ['Choice. '] }, ...rich(choice)] },
      { kind: 'p', text: [{ strong: ['Reason. '] }, ...rich(a.reason)] },
    );
    if (a.citedAt.length)
      blocks.push({
        kind: 'p',
        text: ['Cited at: ', ...joined(a.citedAt.map((p) => place(p, p.replace(/^#\//, ''))))],
      });
  }
  return { path: PAGES.open, title: 'Not shown and assumptions', nav: 'open', blocks };
}
