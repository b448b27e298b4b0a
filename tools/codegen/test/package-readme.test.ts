/**
 * The README and package.json of a generated SDK (issue 32, item 30): the call example is a real call
 * that compiles against the generated package (the spec's params example, else the required fields
 * filled in from the schema; no `{} as never`), and the package's `files` (what npm packs) name the
 * Python and Go models generated with it (the consumer test packs and installs such packages).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { emitPackageReadme, exampleValue } from '../src/emit/package-readme';
import { generateInto, LANGUAGES, modelFromSpec } from '../src/index';
import { ourModel, repoRoot, scratchDir, writeSpec } from './helpers';

const weather = join(repoRoot, 'test', 'sdk', 'fixtures', 'weather.asyncapi.yaml');

/** The weather spec with its only method's params example removed and more required params of every kind. */
function withoutParamsExample(): string {
  const spec = parse(readFileSync(weather, 'utf8'));
  delete spec.components.messages.StationQuery.examples;
  spec.components.schemas.StationQuery = {
    type: 'object',
    additionalProperties: false,
    required: ['station_id', 'kind', 'limit', 'near', 'sensors', 'active'],
    properties: {
      station_id: { type: 'string', minLength: 1 },
      kind: { $ref: '#/components/schemas/StationKind' },
      limit: { type: 'integer', minimum: 1 },
      near: { oneOf: [{ $ref: '#/components/schemas/PointLocation' }, { $ref: '#/components/schemas/GridLocation' }] },
      sensors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Sensor' } },
      active: { type: 'boolean' },
      note: { type: 'string' },
    },
  };
  return writeSpec(stringify(spec), 'weather-no-example.asyncapi.yaml');
}

/** The type errors of `file` under the repository's compiler options (the packages resolve to their sources). */
function typeErrors(file: string): string[] {
  const config = ts.readConfigFile(join(repoRoot, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repoRoot);
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the README of a generated SDK', () => {
  it('says how many methods its document shows, how many are typed from its clients, how many sign', async () => {
    const model = await ourModel();
    const [readme] = emitPackageReadme(model, { name: '@acme/venue', version: model.version, docs: false }, 'x');
    const clients = model.methods.filter((m) => m.source === 'clients').length;
    const signed = model.methods.filter((m) => m.actionModule !== null).length;
    expect(clients).toBeGreaterThan(80);
    expect(readme!.content).toContain(
      `${model.methods.length} methods: ${model.methods.length - clients} shown by the API's document and ` +
        `${clients} typed from what its public clients send and read (\`x-source: clients\`); ` +
        `${signed} carry an action signature (\`x-action-module\`).`,
    );
    // A spec without either says nothing of them.
    const plain = await modelFromSpec(weather, repoRoot);
    const [other] = emitPackageReadme(plain, { name: '@acme/weather', version: '1.0.0', docs: false }, 'x');
    expect(other!.content).not.toMatch(/x-source|x-action-module/);
  });

  it('fills a params value from the schema: examples, enums, bounds, branches, required fields only', () => {
    const schemas = {
      Kind: { type: 'string', enum: ['coastal', 'urban'] },
      P: { type: 'object', required: ['kind'], properties: { kind: { const: 'point' }, x: { type: 'number' } } },
    };
    expect(
      exampleValue(
        {
          type: 'object',
          required: ['id', 'kind', 'n', 'at', 'where', 'tags', 'opt'],
          properties: {
            id: { type: 'string' },
            kind: { $ref: '#/components/schemas/Kind' },
            n: { type: 'integer', exclusiveMinimum: 0 },
            at: { type: 'string', examples: ['2024-01-01'] },
            where: { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/P' }] },
            tags: { type: 'array', items: { type: 'string' } },
            opt: { type: ['null', 'boolean'] },
            extra: { type: 'string' },
          },
        },
        schemas,
      ),
    ).toEqual({ id: '<id>', kind: 'coastal', n: 1, at: '2024-01-01', where: { kind: 'point' }, tags: [], opt: false });
    // A cycle ends, bounded in depth.
    const loop = { Node: { type: 'object', required: ['next'], properties: { next: { $ref: '#/x/Node' } } } };
    expect(JSON.stringify(exampleValue({ $ref: '#/x/Node' }, loop))).toMatch(/null/);
  });

  it(
    'calls a method without a params example with typed params that compile; ' + 'the packed package has its models',
    async () => {
      const out = scratchDir('readme-call-');
      const languages = LANGUAGES.filter((l) => l.id === 'python' || l.id === 'go');
      await generateInto(withoutParamsExample(), out, { check: false, languages });
      const readme = readFileSync(join(out, 'README.md'), 'utf8');
      expect(readme).not.toContain('as never');
      const block = /^```ts\n([\s\S]*?)^```/m.exec(readme)![1]!;
      expect(block).toContain(
        'client.rpc.getStation({"station_id":"<station_id>","kind":"coastal","limit":1,' +
          '"near":{"kind":"point","lat":-90,"lon":-180},' +
          '"sensors":[{"sensor":"temperature","unit":"<unit>"}],"active":false})',
      );
      // The example as a program of this folder: the package's name is its src/index.ts.
      const name = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).name as string;
      const example = join(out, 'readme-example.ts');
      writeFileSync(example, `${block.replace(`from '${name}'`, "from './src/index'")}\nexport {};\n`);
      expect(typeErrors(example)).toEqual([]);

      const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
      expect(pkg.files).toEqual(['dist', 'python', 'go']);
      // npm packs what `files` names (and README.md, package.json): the models are in the named folders.
      expect(existsSync(join(out, 'python', 'models.py'))).toBe(true);
      expect(existsSync(join(out, 'go', 'models.go'))).toBe(true);
    },
    180_000,
  );
});
