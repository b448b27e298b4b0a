#!/usr/bin/env node
// One version for everything: the spec's info.version (spec/asyncapi.yaml) is the source. Every
// workspace package's version, and every pin of one workspace package on another, follows it.
//   node scripts/versions.mjs          check; exit 1 and list what differs (run by `npm test`)
//   node scripts/versions.mjs --write  set the packages to the spec's version (then `npm install`)
//   --root <dir>                       another checkout (default: this one)
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? process.argv[rootFlag + 1] : new URL('..', import.meta.url).pathname;
const write = process.argv.includes('--write');
const version = String(parse(readFileSync(join(root, 'spec/asyncapi.yaml'), 'utf8'))?.info?.version ?? '');
if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
  console.error(`versions: spec/asyncapi.yaml info.version is not a semver version (got "${version}")`);
  process.exit(2);
}

const manifests = ['packages', 'tools'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(group, name, 'package.json'))
    .filter((p) => existsSync(join(root, p))),
);
const ours = new Set(manifests.map((p) => JSON.parse(readFileSync(join(root, p), 'utf8')).name));
const differing = [];
for (const file of manifests) {
  const pkg = JSON.parse(readFileSync(join(root, file), 'utf8'));
  if (pkg.version !== version) differing.push(`${file}: version ${pkg.version}`);
  pkg.version = version;
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    for (const dep of Object.keys(pkg[field] ?? {})) {
      if (!ours.has(dep) || pkg[field][dep] === version) continue;
      differing.push(`${file}: ${field}.${dep} ${pkg[field][dep]}`);
      pkg[field][dep] = version;
    }
  }
  if (write) writeFileSync(join(root, file), JSON.stringify(pkg, null, 2) + '\n');
}
if (differing.length === 0) {
  console.log(`versions: every package is at the spec's version ${version}`);
} else if (write) {
  console.log(
    `versions: set ${differing.length} field(s) to ${version}; now run npm install to update package-lock.json`,
  );
} else {
  console.error(`versions: ${differing.length} field(s) differ from the spec's info.version ${version}:`);
  for (const d of differing) console.error(`  ${d}`);
  console.error('fix: node scripts/versions.mjs --write && npm install');
  process.exit(1);
}
