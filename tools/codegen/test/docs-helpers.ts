/** Shared by the docs emitter's tests: the repository's model, loaded once per test file. */
import { modelFromSpec, type ApiModel, type EmittedFile } from '../src/index';
import { ourSpec, repoRoot } from './helpers';

export const root = repoRoot;
export const specFile = ourSpec;

let cached: Promise<ApiModel> | null = null;
export function repoModel(): Promise<ApiModel> {
  cached ??= modelFromSpec(specFile, root);
  return cached;
}

/** A deep copy, so a test can break a model without touching the shared one. */
export const clone = <T>(v: T): T => structuredClone(v);

/** Every id attribute of an HTML or Markdown file. */
export function idsOf(content: string): Set<string> {
  return new Set([...content.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')));
}

/** Internal links of emitted pages that point at a missing file or anchor, as `from → href`. */
export function brokenLinks(files: EmittedFile[], ext: '.html' | '.md'): string[] {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const broken: string[] = [];
  for (const f of files.filter((x) => x.path.endsWith(ext))) {
    const pattern = ext === '.html' ? /href="([^"]+)"/g : /\]\(([^)\s]+)\)/g;
    for (const [, raw] of f.content.matchAll(pattern)) {
      const href = raw!.replace(/&amp;/g, '&');
      if (/^[a-z]+:/i.test(href)) continue;
      const [file, anchor] = href.split('#');
      const target = file ? new URL(file, `file:///site/${f.path}`).pathname.replace(/^\/site\//, '') : f.path;
      const content = byPath.get(target);
      if (content === undefined) broken.push(`${f.path} → ${href} (no file)`);
      else if (anchor && !idsOf(content).has(decodeURIComponent(anchor))) broken.push(`${f.path} → ${href} (no anchor)`);
    }
  }
  return broken;
}
