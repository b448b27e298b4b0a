/**
 * Emitter: model → the files that make a generated SDK folder an npm package of its own: package.json
 * (name, version from the spec; the tsup build of our own packages: ESM + CommonJS + declarations),
 * tsconfig.json and src/index.ts. The README is emit/package-readme.ts.
 */
import codegenPackage from '../../package.json';
import type { ApiModel } from '../model/types';

/** The version of our packages the SDK depends on: the one this generator belongs to (versions move together). */
export const TOOLKIT_VERSION: string = codegenPackage.version;

// The name's rules are ../package-name.ts; re-exported here, where the package's files are made.
export { packageNameOf, packageNameProblem } from '../package-name';

/** The spec's info.version as an npm version: as is when it is semver, `2` → `2.0.0`, otherwise null. */
export function packageVersionOf(model: ApiModel): string | null {
  const v = model.version.replace(/^v(?=\d)/, '');
  if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(v)) return v;
  if (/^\d+(\.\d+)?$/.test(v)) return [...v.split('.'), '0', '0'].slice(0, 3).join('.');
  return null;
}

/** The package's settings: what to call it and whether it carries the docs site. */
export interface PackageSettings {
  name: string;
  version: string;
  docs: boolean;
  /** Whether the validators check string formats with ajv-formats (then a dependency of the package). */
  formats?: boolean;
  /** The folders of the models in other languages (`python`, `go`): packed with the package. */
  languages?: readonly string[];
}

/** package.json of the SDK: exports import/require with types first, built by tsup on `npm pack`. */
export function packageJson(model: ApiModel, settings: PackageSettings): string {
  const dist = (kind: 'import' | 'require') => ({
    types: kind === 'import' ? './dist/index.d.ts' : './dist/index.d.cts',
    default: kind === 'import' ? './dist/index.js' : './dist/index.cjs',
  });
  const pkg = {
    name: settings.name,
    version: settings.version,
    description:
      `${model.title}: types, validators, tables and a typed client, generated ` +
      `from its AsyncAPI spec by @exchange-api/codegen`,
    type: 'module',
    engines: { node: '>=20' },
    sideEffects: false,
    files: ['dist', ...(settings.docs ? ['docs'] : []), ...(settings.languages ?? [])],
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.cts',
    exports: { '.': { import: dist('import'), require: dist('require') }, './package.json': './package.json' },
    scripts: { build: 'tsup', prepack: 'tsup' },
    // ajv: the standalone validators import a few of its run-time helpers (no compiler); same version as the
    // generator's.
    // ajv-formats: the string formats (date-time, uuid, …) the validators check, when the spec uses any.
    dependencies: {
      '@exchange-api/client': TOOLKIT_VERSION,
      '@exchange-api/validators': TOOLKIT_VERSION,
      ajv: codegenPackage.dependencies.ajv,
      ...(settings.formats ? { 'ajv-formats': codegenPackage.dependencies['ajv-formats'] } : {}),
    },
    devDependencies: { tsup: '8.5.1', typescript: '5.9.3' },
    // The build of our own packages (tsup.shared.ts): both module formats, both declaration flavours.
    tsup: {
      entry: { index: 'src/index.ts' },
      format: ['esm', 'cjs'],
      dts: true,
      clean: true,
      outDir: 'dist',
      target: 'node20',
      platform: 'neutral',
      sourcemap: false,
      skipNodeModulesBundle: true,
      silent: true,
    },
  };
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** tsconfig.json of the SDK: what the declaration build and an editor check the sources with. */
export function packageTsconfig(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      declaration: true,
      skipLibCheck: true,
      noEmit: true,
      lib: ['ES2023', 'DOM'],
      types: [],
    },
    include: ['src'],
  };
  return JSON.stringify(config, null, 2) + '\n';
}

/** src/index.ts: everything the SDK offers, from one entry. */
export function packageIndex(header: string): string {
  const modules = ['types.gen', 'channels.gen', 'methods.gen', 'tables.gen', 'guards.gen', 'client.gen'];
  return [header, ...modules.map((m) => `export * from './${m}';`), ''].join('\n');
}
