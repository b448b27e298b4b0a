import { packageBuild } from '../../tsup.shared.ts';

// shims: the CommonJS build has no import.meta.url; tsup shims it from __filename.
export default packageBuild({ entry: { index: 'src/index.ts' }, shims: true });
