/** The two markers of our vocabulary (x-not-shown, x-assumption), copied from a spec node onto a model entry. */
type Obj = Record<string, unknown>;

/** A marker's text: a sentence, or a list of sentences joined. */
export const marker = (o: Obj, key: 'x-not-shown' | 'x-assumption'): string | undefined => {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.join(' ');
  return undefined;
};

/** `target` with the node's x-not-shown and x-assumption, when it has them. */
export const withMarkers = <T extends object>(target: T, o: Obj): T => {
  const notShown = marker(o, 'x-not-shown');
  const assumption = marker(o, 'x-assumption');
  if (notShown !== undefined) (target as { notShown?: string }).notShown = notShown;
  if (assumption !== undefined) (target as { assumption?: string }).assumption = assumption;
  return target;
};
