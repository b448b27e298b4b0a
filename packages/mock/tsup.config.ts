import { packageBuild } from '../../tsup.shared.ts';

export default packageBuild({ entry: { index: 'src/index.ts' } });
