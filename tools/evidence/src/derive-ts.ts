import ts from 'typescript';
import { ShapeReader } from './ts-shapes';
import type { ChannelEvidence, DeriveTsEvidence, MethodEvidence, Shape } from './shape';

/** Where derive-ts keeps the venue's machine-readable description. */
export const GENERATED_FILE = 'src/types/generated.ts';

/**
 * Reads derive-ts's generated types (the text of `src/types/generated.ts`) with the TypeScript
 * compiler: every `EndpointMap` method's params and result, every `ChannelSchemaMap` channel's data.
 */
export function readDeriveTs(text: string, version: string, commit: string | null): DeriveTsEvidence {
  const file = '/evidence/generated.ts';
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError) =>
    name === file ? ts.createSourceFile(file, text, lang) : read(name, lang, onError);
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${GENERATED_FILE}: not read`);
  const reader = new ShapeReader(checker);
  const iface = (name: string): ts.Type => {
    const node = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
    if (!node) throw new Error(`${GENERATED_FILE}: no interface ${name} (is this derive-ts's generated types?)`);
    return checker.getTypeAtLocation(node);
  };
  const prop = (type: ts.Type, name: string, where: string): ts.Type => {
    const symbol = checker.getPropertyOfType(type, name);
    if (!symbol) throw new Error(`${GENERATED_FILE}: ${where} has no '${name}'`);
    return checker.getTypeOfSymbol(symbol);
  };

  const methods: Record<string, MethodEvidence> = {};
  for (const entry of checker.getPropertiesOfType(iface('EndpointMap'))) {
    const name = entry.name;
    const pair = checker.getTypeOfSymbol(entry);
    const request = prop(pair, 'request', name);
    const params = reader.shape(prop(request, 'params', `${name}.request`));
    methods[name] = { params, result: resultOf(checker, reader, prop(pair, 'response', name), name) };
  }

  const channels: Record<string, ChannelEvidence> = {};
  for (const entry of checker.getPropertiesOfType(iface('ChannelSchemaMap'))) {
    const pair = checker.getTypeOfSymbol(entry);
    const params: ChannelEvidence['params'] = {};
    for (const p of reader.fields(prop(pair, 'params', entry.name))) {
      params[p.name] = p.enum ? { enum: p.enum.map(String) } : {};
    }
    channels[entry.name] = { params, data: reader.shape(prop(pair, 'data', entry.name)) };
  }
  return {
    client: { name: 'derive-ts', version, commit, file: GENERATED_FILE },
    methods,
    channels,
    records: reader.records,
  };
}

/** The `result` of a JSON-RPC response type (`({result} | {error}) & {id}`). */
function resultOf(checker: ts.TypeChecker, reader: ShapeReader, response: ts.Type, name: string): Shape {
  const members = response.isUnion() ? response.types : [response];
  for (const m of members) {
    const symbol = checker.getPropertyOfType(m, 'result');
    if (symbol) return reader.shape(checker.getTypeOfSymbol(symbol));
  }
  throw new Error(`${GENERATED_FILE}: ${name}.response has no 'result'`);
}
