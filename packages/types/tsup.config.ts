import { packageBuild } from '../../tsup.shared.ts';

// match-channel is its own entry: the code generator imports it before anything is generated;
// write-inside (link-safe writing) too: the generator and the conformance runner share it.
export default packageBuild({
  entry: { index: 'src/index.ts', 'match-channel': 'src/match-channel.ts', 'write-inside': 'src/write-inside.ts' },
});
