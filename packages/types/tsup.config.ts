import { packageBuild } from '../../tsup.shared.ts';

// match-channel is its own entry: the code generator imports it before anything is generated;
// write-inside (link-safe writing) too: the generator and the conformance runner share it; and
// json-schema-keywords, the one list of JSON Schema keywords every walker of a schema reads; and
// decimal, the one reading of decimals (the signer's, the sandbox's and the runner's); and wire-frame, the
// one reading of a frame of a spec that speaks its own messages (the client's and the runner's).
export default packageBuild({
  entry: {
    index: 'src/index.ts',
    'match-channel': 'src/match-channel.ts',
    'write-inside': 'src/write-inside.ts',
    'json-schema-keywords': 'src/json-schema-keywords.ts',
    decimal: 'src/decimal.ts',
    'wire-frame': 'src/wire-frame.ts',
  },
});
