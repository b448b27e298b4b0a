/**
 * Emitter: model → the client's generated surface (packages/client/src/generated). One signed helper
 * per order-flow method on the client itself, and a typed `rpc` namespace with one raw call per
 * method, named by operation id, so a method added to the spec reaches the client without hand edits.
 * The hand-written core (packages/client/src/client.ts) supplies `call` and `action`; the surface
 * imports only types, from the small hand-written packages/client/src/types.ts (never the client
 * class, which extends it).
 */
import type { ApiModel, MethodModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { tsComment, tsKey, tsString } from './escape';

const docOf = (m: MethodModel, indent: string) =>
  `${indent}/** ${tsComment(`\`${m.name}\`: ${m.summary || m.description} (${m.transports.join(', ')}; ${m.rateLimitClass}${m.auth === 'login' ? '; login' : ''})`)} */`;

/** The client surface of `model`: order-flow helpers and the `rpc` namespace, in one file (slot `client`). */
export function emitClientSurface(model: ApiModel): EmittedFile[] {
  const orderFlow = model.methods.filter((m) => m.orderFlow);
  const lines: string[] = [
    "import type { ActionInput, CallableMethod, CallOptions, CallParams, CallResult } from '../types';",
    "import type { OrderFlowMethodName } from '@exchange-api/types';",
    '',
    '/** What the generated surface needs from the hand-written core. */',
    'export interface SurfaceCore {',
    '  call<M extends CallableMethod>(method: M, params: CallParams<M>, options?: CallOptions): Promise<CallResult<M>>;',
    '  action<M extends OrderFlowMethodName>(method: M, params: ActionInput<M>, options?: CallOptions): Promise<CallResult<M>>;',
    '}',
    '',
    '/** Signed helpers, one per order-flow method: nonce and expiry filled in when absent, then signed and sent. */',
    'export abstract class OrderFlowHelpers {',
    '  abstract action<M extends OrderFlowMethodName>(method: M, params: ActionInput<M>, options?: CallOptions): Promise<CallResult<M>>;',
  ];
  for (const m of orderFlow) {
    lines.push(docOf(m, '  '));
    lines.push(
      `  ${tsKey(m.id)}(params: ActionInput<${tsString(m.name)}>, options?: CallOptions): Promise<CallResult<${tsString(m.name)}>> {`,
    );
    lines.push(`    return this.action(${tsString(m.name)}, params, options);`);
    lines.push('  }');
  }
  lines.push('}', '');
  lines.push('/**');
  lines.push(' * Typed raw calls, one per method, named by operation id. Order-flow methods are signed; the');
  lines.push(' * others go through `call` unchanged (subscribe here is the bare JSON-RPC method: use');
  lines.push(' * `client.subscribe()` for handlers).');
  lines.push(' */');
  lines.push('export function createRpc(core: SurfaceCore) {');
  lines.push('  return {');
  for (const m of model.methods) {
    lines.push(docOf(m, '    '));
    if (m.orderFlow) {
      lines.push(
        `    ${tsKey(m.id)}: (params: ActionInput<${tsString(m.name)}>, options?: CallOptions) => core.action(${tsString(m.name)}, params, options),`,
      );
    } else {
      lines.push(
        `    ${tsKey(m.id)}: (params: CallParams<${tsString(m.name)}>, options?: CallOptions) => core.call(${tsString(m.name)}, params, options),`,
      );
    }
  }
  lines.push('  } as const;', '}', '');
  lines.push('/** The `rpc` namespace of a client. */', 'export type Rpc = ReturnType<typeof createRpc>;');
  return [{ slot: 'client', path: 'surface.gen.ts', content: lines.join('\n') + '\n' }];
}
