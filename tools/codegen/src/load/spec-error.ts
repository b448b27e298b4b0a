/** One problem found in a spec: where (file, JSON pointer, line) and what. */
export interface SpecProblem {
  file: string;
  pointer: string;
  line?: number;
  message: string;
  severity: 'error' | 'warning';
}

/** Thrown when a spec cannot be used; the message lists every error with its place. */
export class SpecError extends Error {
  readonly code = 'SPEC_INVALID';
  constructor(readonly problems: SpecProblem[]) {
    super(`spec has ${problems.length} error(s):\n` + problems.map(formatProblem).join('\n'));
    this.name = 'SpecError';
  }
}

export function formatProblem(p: SpecProblem): string {
  const where = p.line !== undefined ? `${p.file}:${p.line}` : p.file;
  return `${p.severity}: ${where} ${p.pointer || '#'}: ${p.message}`;
}

/** JSON pointer (RFC 6901) of a path. */
export function toPointer(path: ReadonlyArray<string | number>): string {
  return '#' + path.map((k) => '/' + String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function fromPointer(pointer: string): string[] {
  const body = pointer.replace(/^#/, '');
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((k) => decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'));
}
