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
  const changes: Change[] = [];
  if (old.id !== now.id)
    changes.push(
      change('method.operation-id-changed', subject, `operation id ${old.id} → ${now.id}`, {
        names: [`rpc.${old.id}`],
      }),
    );
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
  // The records assumed where the document leaves params or result open (`x-assumed-params`/`-result`): what the sandbox and client use.
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
  const { added, removed } = listDelta(old.transports, now.transports);
  for (const t of removed)
    changes.push(
      change('method.transport-removed', subject, `no longer served over ${t}`, {
        names: t === 'ws' ? ['WsMethodName'] : ['HttpMethodName'],
      }),
    );
  for (const t of added) changes.push(change('method.transport-added', subject, `now served over ${t}`));
  if (old.httpPath !== null && now.httpPath !== null && old.httpPath !== now.httpPath)
    changes.push(change('method.http-path-changed', subject, `${old.httpPath} → ${now.httpPath}`));
  if (old.auth !== now.auth)
    changes.push(
      change(
        now.auth === 'login' ? 'method.login-required' : 'method.login-dropped',
        subject,
        `auth ${old.auth} → ${now.auth}`,
      ),
    );
  const limit = (m: MethodModel) => [m.rateLimitClass, m.rateLimitBudget, JSON.stringify(m.rateLimitRule)].join(' ');
  if (limit(old) !== limit(now))
    changes.push(
      change(
        'method.rate-limit-changed',
        subject,
        `class ${show(old.rateLimitClass)} → ${show(now.rateLimitClass)}${old.rateLimitBudget !== now.rateLimitBudget ? `, budget ${show(old.rateLimitBudget)} → ${show(now.rateLimitBudget)}` : ''}`,
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
  return changes;
}
