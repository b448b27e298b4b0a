// The one build of every publishable package: ESM + CommonJS + declarations (.d.ts / .d.cts) in dist/.
// tsup (esbuild + rollup-plugin-dts) rather than plain tsc: one step gives both module formats and
// both declaration flavours from sources written with extensionless imports; tsc alone would emit
// one format and would need `.js` suffixes rewritten for the other.
import { defineConfig } from 'tsup';

/** The custom export condition under which the repository resolves its packages to their sources. */
export const SOURCE_CONDITION = '@exchange-api/source';

/** The build of one package: each entry (name → source file) becomes dist/<name>.{js,cjs,d.ts,d.cts}. */
export function packageBuild({
  entry,
  platform = 'node',
  shims = false,
}: {
  entry: Record<string, string>;
  platform?: 'node' | 'neutral';
  shims?: boolean;
}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    // Declarations are built against the declarations our other packages have already built (turbo
    // builds dependencies first), as a consumer reads them: without the source condition each package's
    // declaration build type-checked the sources of every package below it again (cli: 11 s of CPU
    // against 4 s). The type-check of the sources is tsc's (tsconfig.check.json).
    dts: { compilerOptions: { customConditions: [] } },
    clean: true,
    outDir: 'dist',
    target: 'node20',
    platform,
    shims,
    splitting: true,
    sourcemap: false,
    treeshake: false,
    // The generated declaration bundle must name our own packages as imports, never inline them.
    skipNodeModulesBundle: true,
    silent: true,
  });
}
