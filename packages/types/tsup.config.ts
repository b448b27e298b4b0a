import { packageBuild } from '../../tsup.shared.ts';

// match-channel is its own entry: the code generator imports it before anything is generated.
export default packageBuild({ entry: { index: 'src/index.ts', 'match-channel': 'src/match-channel.ts' } });
