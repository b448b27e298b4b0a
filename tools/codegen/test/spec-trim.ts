/**
 * Our spec without the methods typed wholesale from derive-ts (x-assumption: client-endpoint-map):
 * the tests that break the spec in one place and load it again parse it once per case, and those 87
 * methods, their messages and their message references took most of each parse (about 15 s a case on a
 * busy 2-core machine). Every part the document shows, and every convention, is still there to break.
 * Text in, text out, so each case's edit and the file, line and pointer it expects stay as in the spec.
 */
const OPERATION = /^ {2}([A-Za-z0-9_]+):\n((?: {4}.*\n|\n)*)/gm;

/** The spec's text with the client-endpoint-map operations, their messages and the references to them cut. */
export function withoutEndpointMap(spec: string): string {
  const start = spec.indexOf('\noperations:\n');
  const end = spec.indexOf('\ncomponents:\n');
  if (start < 0 || end < start) throw new Error('spec-trim: no operations section before components');
  const operations = spec.slice(start, end + 1);
  const messages = new Set<string>();
  const kept = operations.replace(OPERATION, (block: string, _id: string, body: string) => {
    if (!body.includes('    x-assumption: client-endpoint-map\n')) return block;
    for (const m of body.matchAll(/#\/channels\/rpc\/messages\/([A-Za-z0-9_]+)/g)) messages.add(m[1]!);
    return '';
  });
  if (messages.size === 0) throw new Error('spec-trim: no client-endpoint-map operation found to cut');
  let out = spec.slice(0, start) + kept + spec.slice(end + 1);
  for (const name of messages) {
    // The rpc channel's reference line, and the message's own block in components.messages.
    out = out.replace(new RegExp(`^ {6}${name}: \\{ \\$ref: '#/components/messages/${name}' \\}\\n`, 'm'), '');
    out = out.replace(new RegExp(`^ {4}${name}:\\n(?: {6}.*\\n)*`, 'm'), '');
  }
  return out;
}
