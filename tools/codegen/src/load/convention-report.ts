/** How the convention checks report: a path into the spec, a message, a severity; values shown short. */

export type Path = Array<string | number>;
export type Report = (path: Path, message: string, severity?: 'error' | 'warning') => void;

export const isStr = (v: unknown): v is string => typeof v === 'string';

/** A value as a message shows it: JSON, cut at 60 characters. */
export const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
};
