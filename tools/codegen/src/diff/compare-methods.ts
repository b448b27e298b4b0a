/** Changes to the JSON-RPC methods: presence, operation id, params and result, transports, login, limits. */
import type { ApiModel, MethodModel, PayloadModel } from '../model/types';
import { change, listDelta, show, type Change } from './change';

const mapEntry = (m: MethodModel) => `Methods['${m.name}']`;

/** Methods match by their JSON-RPC name (what goes on the wire); the operation id names the generated rpc function. */
export function compareMethods(before: ApiModel, after: ApiModel): Change[] {
  const afterByName = new Map(after.methods.map((m) => [m.name, m]));
  const beforeNames = new Set(before.methods.map((m) => m.name));
  const changes: Change[] = [];
  for (const old of before.methods) {
    const now = afterByName.get(old.name);
    if (!now)
      changes.push(
        change('method.removed', `method ${old.name}`, 'removed', { names: [mapEntry(old), `rpc.${old.id}`] }),
      );
    else changes.push(...compareMethod(old, now));
  }
  for (const m of after.methods)
    if (!beforeNames.has(m.name)) changes.push(change('method.added', `method ${m.name}`, 'added'));
  return changes;
}

/** Whether two payloads are the same shape by name (named records are compared field by field elsewhere). */
const samePayload = (a: PayloadModel, b: PayloadModel) =>
  a.array === b.array &&
  (a.record !== null || b.record !== null
    ? a.record === b.record
    : JSON.stringify(a.schema) === JSON.stringify(b.schema));
const payloadShape = (p: PayloadModel) => `${p.array ? 'array of ' : ''}${p.record ?? 'an inline schema'}`;

function compareMethod(old: MethodModel, now: MethodModel): Change[] {
  const subject = `method ${now.name}`;
  // The generated rpc function is named by the operation id: the wire is the same, the name moves.
  const renamed =
    old.id !== now.id
      ? [
          change('method.operation-id-changed', subject, `operation id ${old.id} → ${now.id}`, {
            names: [`rpc.${old.id}`],
          }),
        ]
      : [];
  return [
    ...renamed,
    ...payloadChanges(old, now, subject),
    ...transportChanges(old, now, subject),
    ...policyChanges(old, now, subject),
  ];
}

/**
 * What the method takes and answers: the params and result, and the records assumed where the document leaves them
 * open.
 */
function payloadChanges(old: MethodModel, now: MethodModel, subject: string): Change[] {
  const changes: Change[] = [];
  if (!samePayload(old.params, now.params))
    changes.push(
      change('method.params-changed', subject, `params ${payloadShape(old.params)} → ${payloadShape(now.params)}`, {
        names: [mapEntry(now)],
      }),
    );
  if (!samePayload(old.result, now.result))
    changes.push(
      change('method.result-changed', subject, `result ${payloadShape(old.result)} → ${payloadShape(now.result)}`, {
        names: [mapEntry(now)],
      }),
    );
  // The records assumed where the document leaves params or result open (`x-assumed-params`/`-result`): what the
  // sandbox and client use.
  if (old.assumedParams !== now.assumedParams)
    changes.push(
      change(
        'method.params-changed',
        subject,
        `assumed params ${old.assumedParams ?? 'none'} → ${now.assumedParams ?? 'none'}`,
        { names: [mapEntry(now)] },
      ),
    );
  if (old.assumedResult !== now.assumedResult)
    changes.push(
      change(
        'method.result-changed',
        subject,
        `assumed result ${old.assumedResult ?? 'none'} → ${now.assumedResult ?? 'none'}`,
        { names: [mapEntry(now)] },
      ),
    );
  return changes;
}

/** Where the method is served: its transports and its HTTP path. */
function transportChanges(old: MethodModel, now: MethodModel, subject: string): Change[] {
  const { added, removed } = listDelta(old.transports, now.transports);
  const changes = [
    ...removed.map((t) =>
      change('method.transport-removed', subject, `no longer served over ${t}`, {
        names: t === 'ws' ? ['WsMethodName'] : ['HttpMethodName'],
      }),
    ),
    ...added.map((t) => change('method.transport-added', subject, `now served over ${t}`)),
  ];
  if (old.httpPath !== null && now.httpPath !== null && old.httpPath !== now.httpPath)
    changes.push(change('method.http-path-changed', subject, `${old.httpPath} → ${now.httpPath}`));
  return changes;
}

/** What a call must bring and what it costs: login, the rate-limit class and budget, a signed order flow. */
function policyChanges(old: MethodModel, now: MethodModel, subject: string): Change[] {
  const changes: Change[] = [];
  if (old.auth !== now.auth)
    changes.push(
      change(
        now.auth === 'login' ? 'method.login-required' : 'method.login-dropped',
        subject,
        `auth ${old.auth} → ${now.auth}`,
      ),
    );
  const limit = (m: MethodModel) =>
    [m.rateLimitClass, m.rateLimitBudget, JSON.stringify(m.rateLimitRule), m.rateLimitKey ?? m.name].join(' ');
  if (limit(old) !== limit(now))
    changes.push(
      change(
        'method.rate-limit-changed',
        subject,
        `class ${show(old.rateLimitClass)} → ${show(now.rateLimitClass)}` +
          (old.rateLimitBudget !== now.rateLimitBudget
            ? `, budget ${show(old.rateLimitBudget)} → ${show(now.rateLimitBudget)}`
            : ''),
      ),
    );
  if (old.orderFlow !== now.orderFlow)
    changes.push(
      change(
        'method.order-flow-changed',
        subject,
        now.orderFlow ? 'now signed order flow' : 'no longer signed order flow',
        { names: ['OrderFlowMethodName'] },
      ),
    );
  else if (signs(old) !== signs(now))
    changes.push(change('method.order-flow-changed', subject, `action signature ${signs(old)} → ${signs(now)}`));
  return changes;
}

/** What a method signs: its module and, where the module has several, the layouts. */
function signs(m: MethodModel): string {
  const layouts = m.actionData;
  return show(m.actionModule ?? null) + (layouts.length > 0 ? ` (${layouts.join(', ')})` : '');
}
