/**
 * Spec text never leaves a comment or a string literal (emit/escape.ts), in any language the
 * generator writes. A hostile spec (hostile-spec.ts) is generated as an SDK with Python and Go models:
 * the TypeScript type-checks, and importing it, creating a client and building its addresses runs
 * none of the spec's code; no identifier of the payloads appears outside a comment or a literal in
 * TypeScript or Python; Python imports and passes mypy --strict; Go passes go vet and a program using
 * the models runs; the text still reads in the comments. A property key that would end a Go struct
 * tag is refused, by its place. A spec path holding line breaks stays in the header line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitClientSurface, generateInto, modelFromSpec, parseLanguages } from '../src/index';
import { fixtureSpec, repoRoot, scratchDir, typecheck } from './helpers';
import {
  GO_RUN,
  METHOD,
  PARAM,
  PY_RUN,
  SCHEMA,
  TAG_BREAKING_KEY,
  TAGGABLE_KEY,
  TS_RUN,
  hostileSpec,
} from './hostile-spec';

const CI = process.env.CI === 'true';
const installed = (command: string, args: string[]) =>
  spawnSync(command, args, { encoding: 'utf8', timeout: 20_000 }).status === 0;
const hasPython = installed('python3', ['--version']) && installed('mypy', ['--version']);
const hasGo = installed('go', ['version']);

/** Identifiers of the payloads: none may be code in what the generator writes. */
const PAYLOAD_NAMES = ['__pwned', 'globalThis', 'process', '__import__', '_exit'];

/** The syntax errors of a TypeScript or JavaScript text and the payload identifiers in its code. */
function payloadInCode(file: string, text: string): { syntax: string[]; names: string[] } {
  // A declaration file emits nothing to transpile; tsc checks it (typecheck).
  const out = file.endsWith('.d.ts')
    ? { diagnostics: [] }
    : ts.transpileModule(text, { fileName: file, reportDiagnostics: true, compilerOptions: { allowJs: true } });
  const syntax = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && PAYLOAD_NAMES.includes(node.text)) names.push(`${file}: ${node.text}`);
    ts.forEachChild(node, walk);
  };
  walk(source);
  return { syntax, names };
}

/** Import the SDK in a child process, create a client and build every address; what it saw, and how it ended. */
function loadSdk(out: string, param: string | null) {
  const script = join(out, 'load.mjs');
  writeFileSync(
    script,
    [
      'const [, , index, param] = process.argv;',
      'const sdk = await import(index);',
      "const client = sdk.createClient({ wsUrl: 'ws://127.0.0.1:9', limiter: false });",
      "const addresses = param === '' ? [] : Object.values(sdk.channels).map((build) => build({ [param]: 'plain' }));",
      'console.log(JSON.stringify({ pwned: globalThis.__pwned ?? null, rpc: Object.keys(client.rpc), addresses }));',
      'process.exit(0);',
    ].join('\n'),
  );
  const index = pathToFileURL(join(out, 'src', 'index.ts')).href;
  const r = spawnSync(
    process.execPath,
    ['--conditions=@exchange-api/source', '--import', 'tsx', script, index, param ?? ''],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );
  return { status: r.status, stderr: r.stderr, seen: r.status === 0 ? JSON.parse(r.stdout.trim()) : null };
}

/** Import the Python models in python3: the names its code uses, its classes' docstrings, its converters. */
function loadPython(file: string) {
  const program = [
    'import ast, json, os, sys',
    "tree = ast.parse(open(sys.argv[1], encoding='utf-8').read())",
    'names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}',
    'names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}',
    "docs = [ast.get_docstring(n) or '' for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]",
    'sys.path.insert(0, os.path.dirname(sys.argv[1]))',
    'import models',
    "print(json.dumps({'names': sorted(names), 'docs': docs, 'converters': sorted(models.CONVERTERS)}))",
  ].join('\n');
  const r = spawnSync('python3', ['-c', program, file], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr, seen: r.status === 0 ? JSON.parse(r.stdout.trim()) : null };
}

let spec: string;
let out: string;
beforeAll(async () => {
  spec = join(scratchDir('hostile-spec-'), 'hostile.asyncapi.yaml');
  writeFileSync(spec, hostileSpec(TAG_BREAKING_KEY));
  out = scratchDir('hostile-');
  await generateInto(spec, out, { check: false, cwd: repoRoot, languages: parseLanguages(['python']) });
}, 90_000);

const src = (file: string) => readFileSync(join(out, 'src', file), 'utf8');

describe('a hostile spec, generated as TypeScript', () => {
  it('type-checks, and importing it, creating a client and building its addresses runs none of its code', () => {
    const checked = typecheck(join(out, 'src'));
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    const loaded = loadSdk(out, PARAM);
    expect(loaded.stderr).toBe('');
    expect(loaded.status).toBe(0);
    expect(loaded.seen.pwned).toBeNull();
    expect(loaded.seen.rpc).toHaveLength(2);
    expect(loaded.seen.addresses).toEqual([`things.plain.*/ ${TS_RUN} /*\`$x`]);
  }, 120_000);

  it('holds no payload identifier outside a comment or a literal, in the SDK and in our client surface', async () => {
    const files = readdirSync(join(out, 'src')).filter((f) => /\.(ts|js)$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['client.gen.ts', 'channels.gen.ts', 'validators.gen.js']));
    const surface = emitClientSurface(await modelFromSpec(spec, repoRoot));
    const texts = [...files.map((f) => [f, src(f)] as const), ['surface.gen.ts', surface[0]!.content] as const];
    for (const [file, text] of texts) expect(payloadInCode(file, text), file).toEqual({ syntax: [], names: [] });
  }, 60_000);

  it('keeps the text, escaped, in the comments it documents', () => {
    expect(src('client.gen.ts')).toContain(`/** A client of Evil **\\// ${TS_RUN} /* *\\/ ${TS_RUN} /* ${TS_RUN} //`);
    expect(src('client.gen.ts')).toContain(`/** \`${METHOD.replace('*/', '*\\/')}\`: Do it **\\// ${TS_RUN}`);
    expect(src('channels.gen.ts')).toContain(`/** Address of Things **\\// ${TS_RUN} /* *\\/ ${TS_RUN}`);
    expect(src('methods.gen.ts')).toContain(`  /** Do it **\\// ${TS_RUN} /* *\\/ ${TS_RUN} /* */`);
    expect(src('types.gen.ts')).toContain(` * **\\// ${TS_RUN} /* *\\/ ${TS_RUN} /*\n * ${TS_RUN}\n`);
    // A tsType is json-schema-to-typescript's, not JSON Schema: ignored as the notes say, never written as code.
    expect(src('types.gen.ts')).toMatch(/^ {2}plain\?: string;$/m);
  });
});

describe.skipIf(!hasPython && !CI)('a hostile spec, generated as Python', () => {
  it('imports without running its code, passes mypy --strict, and keeps the text in its docstrings', () => {
    const file = join(out, 'python', 'models.py');
    const loaded = loadPython(file);
    expect(loaded.stderr).toBe('');
    expect(loaded.status).toBe(0);
    expect(loaded.seen.names).not.toContain('__import__');
    expect(loaded.seen.names).not.toContain('_exit');
    expect(loaded.seen.names).not.toContain('exit');
    expect(loaded.seen.converters).toEqual(['Req', 'Res', SCHEMA]);
    expect(loaded.seen.docs.join('\n')).toContain(`"""\n${PY_RUN}\n"""`);
    const mypy = spawnSync('mypy', ['--strict', '--cache-dir', join(out, 'mypy-cache'), file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(mypy.stdout + mypy.stderr).toMatch(/^Success: no issues found in 1 source file/m);
  }, 150_000);
});

describe.skipIf(!hasGo && !CI)('a hostile spec, generated as Go', () => {
  it('refuses, by its place, a property key a Go struct tag cannot carry', async () => {
    const refused = generateInto(spec, scratchDir('hostile-go-'), {
      check: false,
      cwd: repoRoot,
      languages: parseLanguages(['go']),
    });
    await expect(refused).rejects.toThrow(
      `--lang go: a property key Go's encoding/json cannot read from a struct tag ` +
        `(a tag name takes letters, digits, spaces and !#$%&()*+-./:;<=>?@[]^_{|}~ ` +
        `only): ${JSON.stringify(`#/components/schemas/Req/properties/${TAG_BREAKING_KEY.replace(/\//g, '~1')}`)}` +
        `; rename it in the spec or leave go out of --lang`,
    );
  }, 60_000);

  it('passes go vet, and a program using the models runs none of its code; the text stays in comments', async () => {
    const taggable = join(scratchDir('hostile-go-spec-'), 'hostile.asyncapi.yaml');
    writeFileSync(taggable, hostileSpec(TAGGABLE_KEY));
    const dir = scratchDir('hostile-go-');
    await generateInto(taggable, dir, { check: false, cwd: repoRoot, languages: parseLanguages(['go']) });
    const models = readFileSync(join(dir, 'go', 'models.go'), 'utf8');
    expect(models).not.toMatch(/^func init\(/m);
    expect(models).toMatch(new RegExp(`^\\t?// ${GO_RUN.replace(/[(){}]/g, '\\$&')}$`, 'm'));
    const module = join(dir, 'go-main');
    mkdirSync(join(module, 'models'), { recursive: true });
    writeFileSync(join(module, 'go.mod'), 'module hostile\n\ngo 1.19\n');
    copyFileSync(join(dir, 'go', 'models.go'), join(module, 'models', 'models.go'));
    writeFileSync(
      join(module, 'main.go'),
      `package main\n\nimport (\n\t"fmt"\n\n\t"hostile/models"\n)\n\nfunc main() ` +
        `{\n\tout, err := models.RoundTrip(${JSON.stringify(SCHEMA)}, []byte(\`{"v":"x"}\`))\n\tfmt.Println("ok", ` +
        `string(out), err)\n}\n`,
    );
    const env = {
      ...process.env,
      GOCACHE: join(dir, 'go-cache'),
      GOPATH: join(dir, 'go-path'),
      GOFLAGS: '-mod=mod',
      GOPROXY: 'off',
      GOTOOLCHAIN: 'local',
      GO111MODULE: 'on',
    };
    const go = (args: string[]) => spawnSync('go', args, { cwd: module, env, encoding: 'utf8', timeout: 180_000 });
    const vet = go(['vet', './...']);
    expect(vet.stdout + vet.stderr).toBe('');
    expect(vet.status).toBe(0);
    const run = go(['run', '.']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok {"v":"x"} <nil>\n');
  }, 370_000);
});

describe('a spec path holding line breaks (the header line)', () => {
  it('stays on the header line, in every kind of file, and the files load without running it', async () => {
    const name = `spec -->\n${TS_RUN}\n${PY_RUN}\r\u2028.yaml`;
    const pathy = join(scratchDir('header-spec-'), name);
    writeFileSync(pathy, readFileSync(fixtureSpec, 'utf8'));
    const dir = scratchDir('header-');
    await generateInto(pathy, dir, { check: false, cwd: repoRoot, languages: parseLanguages(['python']) });
    const written = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|js|py|md)$/.test(f));
    expect(written.length).toBeGreaterThan(8);
    for (const file of written) {
      const [header, next] = readFileSync(join(dir, file), 'utf8').split('\n');
      expect(header, file).toMatch(
        /^(\/\/|#|<!--) Generated by @exchange-api\/codegen from .*spec - ->\\u000aglobalThis/,
      );
      expect(header, file).not.toMatch(/[\r\u2028\u2029]/);
      expect(header!.slice(0, -4), file).not.toContain('-->');
      expect(next, file).not.toContain('__pwned');
    }
    const loaded = loadSdk(dir, null);
    expect(loaded.stderr).toBe('');
    expect([loaded.status, loaded.seen?.pwned]).toEqual([0, null]);
    if (hasPython) expect(loadPython(join(dir, 'python', 'models.py')).status).toBe(0);
  }, 120_000);
});
