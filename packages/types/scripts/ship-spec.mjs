// Run by prepack, after the build: the package carries the spec it was generated from, so that an
// installed `exchange-api spec`, `docs` and `generate` have the interface to read outside a clone.
// Copied here rather than in the build, whose output turbo restores from its cache: a cached build
// would ship the spec of an older run, while this copy is made from the spec at every pack.
import { copyFileSync, mkdirSync } from 'node:fs';

const from = new URL('../../../spec/asyncapi.yaml', import.meta.url);
mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
copyFileSync(from, new URL('../dist/asyncapi.yaml', import.meta.url));
