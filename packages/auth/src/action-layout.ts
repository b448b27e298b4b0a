/**
 * Where an action signature is made: the EIP-712 types of the Action and the deployments it may be made
 * for (domain, its separator, the module addresses), as the spec states them (x-action-signature, the
 * action-signature assumption). The public clients hard-code one deployment each; a server takes a
 * list of them and accepts a signature made under any.
 */
import { TypedDataEncoder, type TypedDataDomain, type TypedDataField } from 'ethers';
import { actionSignatureTable, methodTable } from '@exchange-api/types';

/** One deployment: the EIP-712 domain (and its separator) and the address of each module. */
export interface ActionDeployment {
  name: string;
  /** `testnet`, `mainnet` or `local`, as the spec names them. */
  network?: string;
  domain: TypedDataDomain;
  /** keccak256 of the domain: what the digest is made with. */
  separator: string;
  /** Module id → address, e.g. `trade`. */
  modules: Readonly<Record<string, string>>;
}

/** The EIP-712 Action type and the deployment a signature is made for. */
export interface ActionLayout {
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  deployment: ActionDeployment;
}

const table = actionSignatureTable!;

/** The domain separator of an EIP-712 domain. */
export function domainSeparator(domain: TypedDataDomain): string {
  return TypedDataEncoder.hashDomain(domain);
}

/** Every deployment the spec lists (x-action-signature.deployments). */
export const actionDeployments: readonly ActionDeployment[] = table.deployments.map((d) => ({
  name: d.name,
  network: d.network,
  domain: { ...d.domain },
  separator: d.separator,
  modules: { ...(d.modules as Record<string, string>) },
}));

/** The deployments of a network (`testnet`, `mainnet`, `local`): what a server accepts by default for it. */
export function deploymentsOf(network: string): ActionDeployment[] {
  return actionDeployments.filter((d) => d.network === network);
}

/** The layout the spec states: its domain (the testnet of derive-ts and derive-py) and its module addresses. */
export const defaultActionLayout: ActionLayout = {
  types: Object.fromEntries(Object.entries(table.types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])),
  primaryType: table.primaryType,
  deployment: {
    name: 'spec',
    domain: { ...table.domain },
    separator: domainSeparator(table.domain),
    modules: Object.fromEntries(Object.entries(table.modules).map(([id, m]) => [id, m.address])),
  },
};

const moduleByMethod = new Map<string, string | null>(methodTable.map((m) => [m.name, m.actionModule]));

/** The module whose action a method signs (the spec's x-action-module), or null: it carries no action signature. */
export function moduleOfMethod(method: string): string | null {
  return moduleByMethod.get(method) ?? null;
}
