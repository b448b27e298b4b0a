// Shared by every vitest project: the repository's packages resolve to their sources through the
// `@exchange-api/source` export condition, so tests never run a stale dist/ (the consumer test in
// test/consumer runs the built, packed packages instead).
import { defaultServerConditions, defaultClientConditions } from 'vite';

export const SOURCE_CONDITION = '@exchange-api/source';

/** Resolve options that put the source condition ahead of the defaults, in Node and in browser builds. */
export const sourceResolve = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: {
    resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions], externalConditions: [SOURCE_CONDITION] },
  },
};
