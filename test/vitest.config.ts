import { defineConfig } from 'vitest/config';
import { hangBounds, longestFirst, sourceResolve } from '../vitest.shared.ts';

// Cross-package end-to-end tests: real sockets on loopback.
export default defineConfig({
  ...sourceResolve,
  // No module isolation between files: re-importing the sources (the parser, ethers, ajv) for each file
  // cost about a minute of CPU per run; no test here mocks a module (packages/types and packages/client do).
  test: {
    name: 'e2e',
    isolate: false,
    include: ['**/*.test.ts'],
    ...hangBounds,
    passWithNoTests: true,
    // Measured on a fresh clone's run, longest first: started last, the consumer test alone was the tail.
    sequence: {
      sequencer: longestFirst([
        'consumer/consumer.test.ts',
        'conformance/generate-sandbox.test.ts',
        'readme/readme.test.ts',
        'main/main-job.test.ts',
        'conformance/generate.test.ts',
        'conformance/suite.test.ts',
        'conformance/hostile.test.ts',
        'conformance/generate-any-spec.test.ts',
        'scripts/dependency-rules.test.ts',
        'sdk/message-apis.test.ts',
      ]),
    },
  },
});
