/**
 * The login and action-signature tables of the model (x-login, x-action-signature): what a client
 * signs and a server verifies, read from the spec's root.
 */
import type { ActionModuleModel, ActionSignatureModel, LoginModel } from './types';
import { withMarkers } from './markers';
import { isObj, type Obj } from '../load/spec-types';
import { obj, str } from './read-values';

/** x-login: the header names (the document's and the clients'), the signed message, freshness, re-verification. */
export function buildLogin(l: Obj): LoginModel {
  const h = obj(l.headers);
  const f = obj(l.freshness);
  return {
    headers: { wallet: str(h.wallet), timestamp: str(h.timestamp), signature: str(h.signature) },
    alternateHeaders: (Array.isArray(l.alternateHeaders) ? l.alternateHeaders : []).map((raw) => {
      const a = obj(raw);
      return { wallet: str(a.wallet), timestamp: str(a.timestamp), signature: str(a.signature) };
    }),
    message: str(l.message),
    freshness: isObj(l.freshness)
      ? withMarkers({ pastMs: Number(f.pastMs), futureMs: Number(f.futureMs), appliesTo: str(f.appliesTo) }, f)
      : null,
    reverifyIntervalMs: typeof obj(l.reverify).intervalMs === 'number' ? (obj(l.reverify).intervalMs as number) : null,
  };
}

/** x-action-signature: the EIP-712 layout, the modules whose actions are signed and the known deployments. */
export function buildActionSignature(a: Obj): ActionSignatureModel {
  const types: ActionSignatureModel['types'] = {};
  for (const [name, fields] of Object.entries(obj(a.types))) {
    types[name] = (Array.isArray(fields) ? fields : []).map((f) => ({
      name: str(obj(f).name),
      type: str(obj(f).type),
    }));
  }
  return withMarkers(
    {
      domain: obj(a.domain),
      primaryType: str(a.primaryType),
      types,
      paramsHash: str(a.paramsHash),
      signatureFields: Array.isArray(a.signatureFields) ? a.signatureFields.map(String) : [],
      modules: Object.fromEntries(Object.entries(obj(a.modules)).map(([id, m]) => [id, buildActionModule(obj(m))])),
      deployments: (Array.isArray(a.deployments) ? a.deployments : []).map((raw) => {
        const d = obj(raw);
        const modules = Object.entries(obj(d.modules)).map(([id, address]) => [id, str(address)]);
        return {
          name: str(d.name),
          network: str(d.network),
          domain: obj(d.domain),
          separator: str(d.separator),
          modules: Object.fromEntries(modules),
        };
      }),
    },
    a,
  );
}

function buildActionModule(m: Obj): ActionModuleModel {
  const words = Array.isArray(m.data) ? m.data : [];
  return {
    address: str(m.address),
    data: words.map((w) => ({ name: str(obj(w).name), type: str(obj(w).type), from: str(obj(w).from) })),
  };
}
