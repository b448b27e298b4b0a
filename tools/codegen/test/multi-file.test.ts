import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec, modelFromSpec, SpecError } from '../src/index';
import { repoRoot, scratchDir } from './helpers';
import { runMain } from '../../../test/support/run-main';

const fixtures = join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'multi-file');
const mainSpec = join(fixtures, 'main.asyncapi.yaml');

/** A copy of the fixtures in a scratch folder, with one file changed. */
function variant(file: string, change: (text: string) => string): string {
  const dir = scratchDir('multi-file-');
  cpSync(fixtures, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
  return dir;
}

const ORDER_REF = './schemas.yaml#/Order';
/** The line of the order payload's $ref in main.asyncapi.yaml. */
const refLine =
  readFileSync(mainSpec, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(ORDER_REF)) + 1;

describe('a spec split over files', () => {
  it('is bundled on load: hoisted schemas under their names, refs local, a message copied in place', async () => {
    const spec = await loadSpec(mainSpec);
    const schemas = (spec.data.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(['Label', 'Thing', 'Part', 'Money', 'Order']);
    expect(JSON.stringify(spec.data)).not.toMatch(/"\$ref":"[^#]/);
    const channels = spec.data.channels as Record<string, { messages: Record<string, { payload: unknown }> }>;
    expect(channels.things!.messages.thing!.payload).toEqual({ $ref: '#/components/schemas/Thing' });
    // A node read from another file knows its own file and line; lineOf answers with the $ref's line.
    expect(spec.source.where(['components', 'schemas', 'Order', 'properties', 'size', 'maximum'])).toMatchObject({
      file: expect.stringMatching(/multi-file[/\\]schemas\.yaml$/),
      line: 19,
      pointer: '#/Order/properties/size/maximum',
    });
    expect(spec.source.lineOf(['components', 'schemas', 'Order'])).toBe(refLine);
    // 64-bit integers of the other file stay exact.
    expect(spec.source.exactIntegers()).toEqual({
      '#/components/schemas/Order/properties/size/maximum': '9223372036854775807',
    });
  });

  it('generates an SDK whose types name the hoisted records and whose validators accept the examples', async () => {
    const model = await modelFromSpec(mainSpec); // checks every example against its validator
    expect(model.channels.map((c) => c.id)).toEqual(['things', 'orders']);
    const out = scratchDir('multi-file-sdk-');
    const r = await runMain(['generate', '--spec', mainSpec, '--out', out]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const types = readFileSync(join(out, 'src', 'types.gen.ts'), 'utf8');
    for (const name of ['Thing', 'Part', 'Money', 'Order']) expect(types).toContain(`export interface ${name} `);
  });

  it('a spec without refs to other files loads as before', async () => {
    const spec = await loadSpec(join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'parcels.asyncapi.yaml'));
    expect(spec.source.isBundled).toBe(false);
  });
});

describe('a ref that cannot be followed: one error with file, line and pointer, exit 2', () => {
  it.each([
    [
      'a missing file',
      './nope.yaml#/Order',
      /\$ref "\.\/nope\.yaml#\/Order" cannot be followed: .*nope\.yaml: cannot be read: no such file/,
    ],
    [
      'a pointer that does not resolve',
      './schemas.yaml#/Nope',
      /\$ref "\.\/schemas\.yaml#\/Nope" does not resolve: .*schemas\.yaml has no "Nope"/,
    ],
    [
      'a YAML error in the referenced file',
      './broken.yaml#/Order',
      /\$ref "\.\/broken\.yaml#\/Order" cannot be followed: .*broken\.yaml:4: not valid YAML/,
    ],
    ['a remote ref', 'https://example.com/schemas.yaml#/Order', /a remote \$ref is not fetched; download the file/],
  ])('%s', async (_what, ref, message) => {
    const dir = variant('main.asyncapi.yaml', (t) => t.replace(ORDER_REF, ref));
    writeFileSync(join(dir, 'broken.yaml'), 'Order:\n  type: object\n  properties: [unclosed\n  required: x\n');
    const r = await runMain(['generate', '--spec', join(dir, 'main.asyncapi.yaml'), '--out', join(dir, 'out')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the spec has 1 error\(s\)/);
    const line = r.stderr.split('\n').find((l) => l.startsWith('error:'))!;
    expect(line).toMatch(
      new RegExp(`main\\.asyncapi\\.yaml:${refLine} #/channels/orders/messages/order/payload/\\$ref: `),
    );
    expect(line).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('a problem inside a referenced file names that file', () => {
  it('an invalid example', async () => {
    const dir = variant('schemas.yaml', (t) => t.replace('- { id: 1, part', "- { id: 'one', part"));
    const err = await modelFromSpec(join(dir, 'main.asyncapi.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    const [p] = (err as SpecError).problems;
    expect(p).toMatchObject({ file: expect.stringMatching(/schemas\.yaml$/), line: 9, pointer: '#/Thing/examples/0' });
    expect(p!.message).toMatch(
      new RegExp(
        /example is not valid: \/id must be integer /.source +
          /\(bundled as #\/components\/schemas\/Thing\/examples\/0 by the \$ref at .*main\.asyncapi\.yaml:\d+\)/.source,
      ),
    );
  });

  it('exchange-api spec names that file too (it checks the examples itself)', async () => {
    const dir = variant('schemas.yaml', (t) => t.replace('- { id: 1, part', "- { id: 'one', part"));
    const r = await runMain(['spec', '--spec', join(dir, 'main.asyncapi.yaml')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /error: .*schemas\.yaml:9 #\/Thing\/examples\/0: example is not valid: \/id must be integer/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an enum value of the wrong type', async () => {
    const dir = variant(join('common', 'money.yaml'), (t) => t.replace('enum: [USD, EUR]', 'enum: [USD, 7]'));
    const err = await loadSpec(join(dir, 'main.asyncapi.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    const found = (err as SpecError).problems.find((p) => /not of the declared type string/.test(p.message));
    expect(found).toMatchObject({
      file: expect.stringMatching(/common[/\\]money\.yaml$/),
      line: 6,
      pointer: '#/Money/properties/currency/enum/1',
    });
  });
});
