import { packageBuild } from '../../tsup.shared.ts';

// shims: the CommonJS build has no import.meta.url (the parser's worker is resolved from it); tsup shims it.
export default packageBuild({ entry: { index: 'src/index.ts' }, shims: true });
