// The dependency check of `npm test` (depcruise over every package's src/): no import cycle, and
// imports follow the layer order of docs/architecture.md ("Layers"): types ← validators, auth ← client,
// sandbox, conformance ← cli; mock (on its own) ← cli; codegen reads only the address matcher of types;
// docs' entry imports nothing of ours; nothing imports test/ or tools/bench. Paths are matched after
// resolution, so a package name and a relative path into another package are caught alike.
/** A package's sources may import only these folders of the repository (its own included). */
const layer = (name, from, allowed) => ({
  name: `layer-${name}`,
  comment: `${from} may import only ${allowed.join(', ')} of the repository's packages`,
  severity: 'error',
  from: { path: `^${from}/` },
  to: { path: '^(packages|tools)/', pathNot: allowed.map((a) => `^${a}/`) },
});

const CODEGEN = '^tools/codegen/src/';
const CODEGEN_ENTRY = `${CODEGEN}(generate[^/]*|index)\\.ts$`;
/** The folders of the generator, lowest first; each may import only itself and those below it. */
const codegenLayers = () => [
  {
    name: 'codegen-text',
    comment: 'text helpers (escaping for an output format) serve every layer: they import nothing of the generator',
    severity: 'error',
    from: { path: `${CODEGEN}text/` },
    to: { path: CODEGEN, pathNot: `${CODEGEN}text/` },
  },
  {
    name: 'codegen-load',
    comment: 'the loader reads and checks the spec: it imports nothing else of the generator',
    severity: 'error',
    from: { path: `${CODEGEN}load/` },
    to: { path: CODEGEN, pathNot: `${CODEGEN}load/` },
  },
  {
    name: 'codegen-model',
    comment: 'the model is built from the loaded spec: it imports only load, model and text',
    severity: 'error',
    from: { path: `${CODEGEN}model/` },
    to: { path: CODEGEN, pathNot: `${CODEGEN}(load|model|text)/` },
  },
  {
    name: 'codegen-emit',
    comment: 'the emitters read the model; the diff and the entry files that compose them are above',
    severity: 'error',
    from: { path: `${CODEGEN}emit/` },
    to: { path: [`${CODEGEN}diff/`, CODEGEN_ENTRY] },
  },
  {
    name: 'codegen-diff',
    comment: 'the diff compares models; the emitters, the writer and the entry files are beside or above it',
    severity: 'error',
    from: { path: `${CODEGEN}diff/` },
    to: { path: [`${CODEGEN}(emit|write)/`, CODEGEN_ENTRY] },
  },
  {
    name: 'codegen-entry',
    comment: 'generate*.ts and index.ts compose the layers: nothing below them imports them',
    severity: 'error',
    from: { path: CODEGEN, pathNot: CODEGEN_ENTRY },
    to: { path: CODEGEN_ENTRY },
  },
];

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'an import cycle', severity: 'error', from: {}, to: { circular: true } },
    layer('types', 'packages/types/src', ['packages/types/src']),
    layer('validators', 'packages/validators/src', ['packages/types/src', 'packages/validators/src']),
    layer('auth', 'packages/auth/src', ['packages/types/src', 'packages/auth/src']),
    layer('client', 'packages/client/src', [
      'packages/types/src',
      'packages/validators/src',
      'packages/auth/src',
      'packages/client/src',
    ]),
    {
      name: 'client-core-knows-no-api',
      comment:
        "the client's core knows no API: only its entries (index, browser, exports, exchange) and src/generated " +
        "import this interface's generated code (the names it takes from @exchange-api/types: " +
        'packages/client/test/core-knows-no-api.test.ts)',
      severity: 'error',
      from: {
        path: '^packages/client/src/',
        pathNot: '^packages/client/src/(generated/|(index|browser|exports|exchange)\\.ts$)',
      },
      to: {
        path: [
          '^packages/client/src/(generated/|(index|browser|exports|exchange)\\.ts$)',
          '^packages/(types|validators)/src/generated/',
        ],
      },
    },
    layer('sandbox', 'packages/sandbox/src', [
      'packages/types/src',
      'packages/validators/src',
      'packages/auth/src',
      'packages/sandbox/src',
    ]),
    layer('conformance', 'packages/conformance/src', [
      'packages/types/src',
      'packages/validators/src',
      'packages/auth/src',
      'packages/conformance/src',
    ]),
    {
      name: 'conformance-engine-imports-no-reporter',
      comment:
        "conformance's engine (runner, checks, the generated run, replay) returns a Report and imports no " +
        'reporter: the command line (cli.ts, cli-args.ts, report-targets.ts, generate/cli.ts) and the package ' +
        'entry hand the report to them',
      severity: 'error',
      from: {
        path: '^packages/conformance/src/',
        pathNot:
          '^packages/conformance/src/(reporters/|(cli|cli-args|report-targets|index)\\.ts$|(generate|messages)/cli\\.ts$|messages/replay-cli\\.ts$)',
      },
      to: { path: '^packages/conformance/src/reporters/' },
    },
    {
      name: 'conformance-reporters-read-the-report',
      comment: "conformance's reporters read the Report (model.ts) alone: they import no part of the engine",
      severity: 'error',
      from: { path: '^packages/conformance/src/reporters/' },
      to: {
        path: '^packages/conformance/src/',
        pathNot: '^packages/conformance/src/(reporters/|(model|endpoint-name)\\.ts$)',
      },
    },
    // The mock serves any spec that speaks its own messages: it reads the model the command hands it.
    layer('mock', 'packages/mock/src', ['packages/mock/src']),
    layer('docs', 'packages/docs/src', ['packages/docs/src']),
    layer('cli', 'packages/cli/(src|bin)', [
      'packages/(types|validators|auth|client|sandbox|conformance|mock|cli)/(src|bin)',
      'tools/codegen/src',
    ]),
    {
      name: 'layer-codegen',
      comment:
        'the generator uses only the address matcher, the link-safe writer and the JSON Schema keywords of ' +
        '@exchange-api/types (never generated output), and its own package.json (its version: the one a ' +
        'generated SDK depends on)',
      severity: 'error',
      from: { path: '^tools/codegen/src/' },
      to: {
        path: '^(packages|tools)/',
        pathNot: [
          '^tools/codegen/src/',
          '^tools/codegen/package\\.json$',
          '^packages/types/src/(match-channel|write-inside|json-schema-keywords)\\.ts$',
        ],
      },
    },
    // Inside the generator, one way (tools/codegen/README.md, "Layers"): text, load ← model ← {emit, diff} ←
    // the entry files (generate*.ts, index.ts), which compose them; emit and diff know nothing of each other.
    ...codegenLayers(),
    {
      name: 'nothing-imports-bench-or-tests',
      comment: 'tools/bench sits at the top and test folders are not code to import',
      severity: 'error',
      from: { path: '^(packages|tools)/[^/]+/(src|bin)/', pathNot: '^tools/bench/' },
      to: { path: ['^tools/bench/', '(^|/)test/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: the client ↔ generated surface cycle was one.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      // The repository's packages resolve to their sources, as in the tests.
      conditionNames: ['@exchange-api/source', 'import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
