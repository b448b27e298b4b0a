/**
 * Presets: where a public client's own network configuration points, so that the client runs against
 * the sandbox with no change. `derive-local` is derive-ts 3.0.13's `local` network (src/config/networks.ts):
 * HTTP at http://localhost:8080 with the method paths at its root, the WebSocket at ws://localhost:3000/ws,
 * and actions signed for chain 31337 under the Matching domain (the spec's `local` deployment).
 */
import { deploymentsOf, type VerifyingDeployment } from '@exchange-api/auth';
import { SandboxOptionsError } from './options-error';

/** What a preset changes: default ports, the WebSocket path, root method paths and the accepted deployments. */
export interface Preset {
  name: string;
  port: number;
  wsPort: number;
  /** The WebSocket path of the second port, besides /v3/ws. */
  wsPath: string;
  /** `/public/<name>` and `/private/<name>` answered as `/v3/public/<name>` and `/v3/private/<name>`. */
  rootPaths: boolean;
  actionDeployments(): VerifyingDeployment[];
}

const deploymentsFor = (network: string) =>
  deploymentsOf(network).map(({ name, separator, modules }) => ({ name, separator, modules }));

export const PRESETS: Readonly<Record<string, Preset>> = {
  'derive-local': {
    name: 'derive-local',
    port: 8080,
    wsPort: 3000,
    wsPath: '/ws',
    rootPaths: true,
    // The local chain's deployment first; the testnet ones still verify, as without a preset.
    actionDeployments: () => [...deploymentsFor('local'), ...deploymentsFor('testnet')],
  },
};

/** The preset of this name, or SandboxOptionsError naming the known ones. */
export function presetOf(name: unknown): Preset {
  if (typeof name !== 'string' || !Object.hasOwn(PRESETS, name))
    throw new SandboxOptionsError(
      'preset',
      `unknown preset ${JSON.stringify(name)} (known: ${Object.keys(PRESETS).join(', ')})`,
    );
  return PRESETS[name]!;
}
