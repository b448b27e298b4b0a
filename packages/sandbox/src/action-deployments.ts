/**
 * The deployments whose action signatures the sandbox accepts (the `actionDeployments` option): each a
 * domain separator and its module addresses. The public clients hard-code one deployment each; by
 * default the sandbox accepts the two testnet ones the spec lists (derive-ts and derive-py's, and
 * ccxt's in sandbox mode: the action-signature assumption).
 */
import { deploymentsOf, type VerifyingDeployment } from '@exchange-api/auth';
import { SandboxOptionsError } from './options-error';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SEPARATOR = /^0x[0-9a-fA-F]{64}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One configured deployment: `{ name?, separator, modules: { trade, rfq? } }`. */
export interface ActionDeploymentConfig {
  name?: string;
  separator: string;
  modules: Record<string, string>;
}

/** The default: the spec's testnet deployments. */
export const defaultActionDeployments = (): VerifyingDeployment[] =>
  deploymentsOf('testnet').map(({ name, separator, modules }) => ({ name, separator, modules }));

function resolveOne(raw: unknown, i: number): VerifyingDeployment {
  const key = `actionDeployments[${i}]`;
  if (!isObject(raw)) throw new SandboxOptionsError(key, 'must be an object with separator and modules');
  for (const k of Object.keys(raw))
    if (!['name', 'separator', 'modules'].includes(k))
      throw new SandboxOptionsError(`${key}.${k}`, 'unknown key (allowed: name, separator, modules)');
  if (typeof raw.separator !== 'string' || !SEPARATOR.test(raw.separator))
    throw new SandboxOptionsError(
      `${key}.separator`,
      `must be 32 bytes of hex, 0x prefix (got ${JSON.stringify(raw.separator)})`,
    );
  if (!isObject(raw.modules) || typeof raw.modules.trade !== 'string')
    throw new SandboxOptionsError(`${key}.modules`, 'must be an object with at least the trade module address');
  const modules: Record<string, string> = {};
  for (const [id, address] of Object.entries(raw.modules)) {
    if (typeof address !== 'string' || !ADDRESS.test(address))
      throw new SandboxOptionsError(`${key}.modules.${id}`, `must be an address (got ${JSON.stringify(address)})`);
    modules[id] = address;
  }
  if (raw.name !== undefined && typeof raw.name !== 'string')
    throw new SandboxOptionsError(`${key}.name`, 'must be a string');
  return {
    name: (raw.name as string | undefined) ?? `deployment ${i}`,
    separator: raw.separator.toLowerCase(),
    modules,
  };
}

/** The configured deployments, or the default when none are given. */
export function resolveActionDeployments(raw: unknown): VerifyingDeployment[] {
  if (raw === undefined) return defaultActionDeployments();
  if (!Array.isArray(raw) || raw.length === 0)
    throw new SandboxOptionsError('actionDeployments', 'must be a non-empty array of { separator, modules }');
  return raw.map(resolveOne);
}
