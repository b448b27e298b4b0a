/**
 * derive-ts's SDK calls (src/api/<group>.ts): each public method of each exported class there, and the
 * wire methods its body names, in order. Facts for the parity table (docs/derive-ts-parity.md).
 */
import ts from 'typescript';
import type { SdkMethod } from './shape';

const WIRE = /^(public|private)\/[A-Za-z0-9_]+$/;

const hidden = (m: ts.ClassElement) =>
  ts
    .getModifiers(m as ts.MethodDeclaration)
    ?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword) ?? false;

const exported = (c: ts.ClassDeclaration) =>
  ts.getModifiers(c)?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/** The SDK methods of the api files, by group (the file's name without `.ts`), sorted by group then source order. */
export function readDeriveTsSdk(files: Record<string, string>): SdkMethod[] {
  const out: SdkMethod[] = [];
  for (const [group, text] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const source = ts.createSourceFile(`${group}.ts`, text, ts.ScriptTarget.Latest, true);
    for (const c of source.statements) {
      if (!ts.isClassDeclaration(c) || !c.name || !exported(c)) continue;
      for (const m of c.members) {
        if (!ts.isMethodDeclaration(m) || !m.body || !ts.isIdentifier(m.name) || hidden(m)) continue;
        const calls: string[] = [];
        const visit = (n: ts.Node): void => {
          if (ts.isStringLiteralLike(n) && WIRE.test(n.text) && !calls.includes(n.text)) calls.push(n.text);
          ts.forEachChild(n, visit);
        };
        visit(m.body);
        out.push({ group, class: c.name.text, method: m.name.text, calls });
      }
    }
  }
  return out;
}
