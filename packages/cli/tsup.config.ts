import { packageBuild } from '../../tsup.shared.ts';

// shims: the CommonJS build has no import.meta.url (the installed spec is found from it); tsup shims it.
export default packageBuild({ entry: { index: 'src/main.ts' }, shims: true });
