/** Changes to the root tables: errors, limits, rate-limit classes, login, the action signature, assumptions. */
import type { ActionModuleModel, ActionSignatureModel, ApiModel, LimitModel } from '../model/types';
import { change, show, type Change } from './change';

/** Items of two lists matched by key: those only before, only after, and in both. */
function match<T>(before: readonly T[], after: readonly T[], key: (x: T) => string | number) {
  const afterBy = new Map(after.map((x) => [key(x), x]));
  const beforeKeys = new Set(before.map(key));
  return {
    removed: before.filter((x) => !afterBy.has(key(x))),
    added: after.filter((x) => !beforeKeys.has(key(x))),
    both: before.flatMap((x) => (afterBy.has(key(x)) ? [[x, afterBy.get(key(x))!] as const] : [])),
  };
}

export function compareTables(before: ApiModel, after: ApiModel): Change[] {
  return [
    ...compareErrors(before, after),
    ...compareLimits(before, after),
    ...compareClasses(before, after),
    ...compareLogin(before, after),
    ...compareAssumptions(before, after),
  ];
}

function compareErrors(before: ApiModel, after: ApiModel): Change[] {
  const { removed, added, both } = match(before.errors.codes, after.errors.codes, (e) => e.code);
  const label = (e: { code: number; name?: string }) => `error ${e.code}${e.name ? ` ${e.name}` : ''}`;
  const changes = [
    ...removed.map((e) => change('error.removed', label(e), `"${e.message}" removed`, { names: ['ErrorEntry'] })),
    ...added.map((e) => change('error.added', label(e), `"${e.message}" added`)),
  ];
  for (const [a, b] of both) {
    // ErrorEntry (the generated error table's entry type) carries each code's message, name, kind and status as literal
    // types.
    if (a.message !== b.message)
      changes.push(
        change('error.message-changed', label(b), `${show(a.message)} → ${show(b.message)}`, {
          names: ['ErrorEntry'],
        }),
      );
    if (a.name !== b.name)
      changes.push(
        change('error.name-changed', label(b), `${show(a.name ?? null)} → ${show(b.name ?? null)}`, {
          names: ['ErrorEntry'],
        }),
      );
    if (a.httpStatus !== b.httpStatus)
      changes.push(
        change('error.status-changed', label(b), `HTTP status ${a.httpStatus ?? 'none'} → ${b.httpStatus ?? 'none'}`, {
          names: ['ErrorEntry'],
        }),
      );
    for (const k of ['data', 'dataPattern', 'textFramePrefix'] as const)
      if (a[k] !== b[k])
        changes.push(
          change(
            'error.data-changed',
            label(b),
            `${k} ${a[k] === undefined ? 'none' : `\`${a[k]}\``} → ${b[k] === undefined ? 'none' : `\`${b[k]}\``}`,
            { names: ['ErrorEntry'] },
          ),
        );
    if (a.kind !== b.kind)
      changes.push(
        change('error.kind-changed', label(b), `${show(a.kind ?? null)} → ${show(b.kind ?? null)}`, {
          names: ['ErrorEntry'],
        }),
      );
  }
  return changes;
}

/** The amounts of a limit where more means more allowed. */
const AMOUNTS: Array<keyof LimitModel> = ['tps', 'points', 'max', 'refillPerSecond', 'capacity', 'maxBytes'];

function compareLimits(before: ApiModel, after: ApiModel): Change[] {
  const { removed, added, both } = match(before.limits, after.limits, (l) => l.id);
  const changes = [
    ...removed.map((l) => change('limit.removed', `limit ${l.id}`, `${l.title} removed`)),
    ...added.map((l) => change('limit.added', `limit ${l.id}`, `${l.title} added`)),
  ];
  for (const [a, b] of both) {
    const subject = `limit ${b.id}`;
    if (
      a.kind !== b.kind ||
      a.scope !== b.scope ||
      JSON.stringify(a.instrumentTypes) !== JSON.stringify(b.instrumentTypes)
    ) {
      changes.push(
        change('limit.changed', subject, `kind/scope ${a.kind} ${show(a.scope)} → ${b.kind} ${show(b.scope)}`),
      );
      continue;
    }
    const moves: string[] = [];
    let tighter = false;
    let looser = false;
    for (const k of [...AMOUNTS, 'windowMs' as const]) {
      const x = a[k] as number | undefined;
      const y = b[k] as number | undefined;
      if (x === y) continue;
      moves.push(`${k} ${x ?? 'none'} → ${y ?? 'none'}`);
      // A longer window for the same points allows less per second; a bound that appears allows less, one that goes
      // away more.
      const allowsMore = x === undefined ? false : y === undefined ? true : k === 'windowMs' ? y < x : y > x;
      if (allowsMore) looser = true;
      else tighter = true;
    }
    if (moves.length)
      changes.push(
        change(
          tighter && looser ? 'limit.changed' : tighter ? 'limit.tightened' : 'limit.loosened',
          subject,
          moves.join(', '),
        ),
      );
  }
  return changes;
}

function compareClasses(before: ApiModel, after: ApiModel): Change[] {
  const { removed, added, both } = match(before.rateLimitClasses, after.rateLimitClasses, (c) => c.name);
  const changes = [
    ...removed.map((c) => change('rate-limit-class.removed', `rate-limit class ${c.name}`, 'removed')),
    ...added.map((c) => change('rate-limit-class.added', `rate-limit class ${c.name}`, 'added')),
  ];
  for (const [a, b] of both) {
    if (a.budget !== b.budget || a.appliesTo !== b.appliesTo || a.default !== b.default)
      changes.push(
        change(
          'rate-limit-class.changed',
          `rate-limit class ${b.name}`,
          `budget ${show(a.budget)} → ${show(b.budget)}`,
        ),
      );
  }
  return changes;
}

function compareLogin(before: ApiModel, after: ApiModel): Change[] {
  const changes: Change[] = [];
  const a = before.login;
  const b = after.login;
  if (JSON.stringify(a?.headers) !== JSON.stringify(b?.headers) || a?.message !== b?.message)
    changes.push(
      change(
        'login.changed',
        'login',
        a && b ? 'headers or signed message changed' : a ? 'login removed' : 'login added',
      ),
    );
  else {
    const window = (l: typeof a) =>
      l?.freshness && { pastMs: l.freshness.pastMs, futureMs: l.freshness.futureMs, appliesTo: l.freshness.appliesTo };
    if (JSON.stringify(window(a)) !== JSON.stringify(window(b)))
      changes.push(
        change('login.window-changed', 'login', `freshness ${show(window(a) ?? null)} → ${show(window(b) ?? null)}`),
      );
    if ((a?.reverifyIntervalMs ?? null) !== (b?.reverifyIntervalMs ?? null))
      changes.push(
        change(
          'login.reverify-changed',
          'login',
          `reverify interval ${a?.reverifyIntervalMs ?? 'none'} → ${b?.reverifyIntervalMs ?? 'none'} ms`,
        ),
      );
  }
  changes.push(...compareActionSignature(before.actionSignature, after.actionSignature));
  return changes;
}

/** A module's data is named layouts (each a tuple: rfq, vault) rather than the words of one. */
const isLayouts = (m: ActionModuleModel) => m.data.length > 0 && m.data.every((w) => w.type.startsWith('('));

/**
 * Whether a module still encodes what it did: the same words in the same order, or, for a module of named
 * layouts, each old layout under its name with its type (new layouts beside them change nothing).
 */
function keepsLayouts(old: ActionModuleModel, now: ActionModuleModel): boolean {
  const words = (m: ActionModuleModel) => m.data.map((w) => `${w.name}:${w.type}`);
  if (!isLayouts(old) || !isLayouts(now)) return JSON.stringify(words(old)) === JSON.stringify(words(now));
  const byName = new Set(words(now));
  return words(old).every((w) => byName.has(w));
}

/**
 * The action signature: what a signature made before is checked against (the domain, the Action's types,
 * every module's address and data layouts, every deployment) changing breaks; new modules, layouts or
 * deployments, and a reworded description, extend it.
 */
function compareActionSignature(a: ActionSignatureModel | null, b: ActionSignatureModel | null): Change[] {
  const all = (s: ActionSignatureModel | null) =>
    JSON.stringify(s && { ...s, notShown: undefined, assumption: undefined });
  if (all(a) === all(b)) return [];
  if (!a || !b) return [change('action-signature.changed', 'action signature', a ? 'removed' : 'added')];
  const core = (s: ActionSignatureModel) => JSON.stringify([s.domain, s.primaryType, s.types, s.signatureFields]);
  const broken: string[] = [];
  if (core(a) !== core(b)) broken.push('EIP-712 domain, types or signature fields');
  for (const [id, m] of Object.entries(a.modules)) {
    const now = b.modules[id];
    if (!now || now.address !== m.address || !keepsLayouts(m, now)) broken.push(`module ${id}`);
  }
  for (const d of a.deployments) {
    const now = b.deployments.find((x) => x.name === d.name);
    const same =
      now &&
      now.separator === d.separator &&
      JSON.stringify(now.domain) === JSON.stringify(d.domain) &&
      Object.entries(d.modules).every(([id, address]) => now.modules[id] === address);
    if (!same) broken.push(`deployment ${d.name}`);
  }
  if (broken.length > 0)
    return [change('action-signature.changed', 'action signature', `${broken.join(', ')} changed`)];
  const added = [
    ...Object.keys(b.modules)
      .filter((id) => !a.modules[id])
      .map((id) => `module ${id}`),
    ...Object.entries(b.modules)
      .filter(([id, m]) => a.modules[id] && isLayouts(m) && m.data.length > a.modules[id]!.data.length)
      .map(([id]) => `layouts of ${id}`),
    ...b.deployments.filter((d) => !a.deployments.some((x) => x.name === d.name)).map((d) => `deployment ${d.name}`),
  ];
  return [
    change(
      'action-signature.extended',
      'action signature',
      added.length > 0 ? `added: ${added.join(', ')}` : 'description or module addresses of a deployment added',
    ),
  ];
}

function compareAssumptions(before: ApiModel, after: ApiModel): Change[] {
  const { removed, added, both } = match(before.assumptions, after.assumptions, (x) => x.id);
  return [
    ...removed.map((x) => change('assumption.removed', `assumption ${x.id}`, x.title)),
    ...added.map((x) => change('assumption.added', `assumption ${x.id}`, x.title)),
    ...both
      .filter(([a, b]) => a.choice !== b.choice)
      .map(([, b]) => change('assumption.changed', `assumption ${b.id}`, `now: ${show(b.choice)}`)),
  ];
}
