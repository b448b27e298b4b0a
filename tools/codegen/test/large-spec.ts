/**
 * Large and hostile specs for the size and depth guards (large-specs.test.ts, and the measurements of
 * issue 23 item 11): each a valid AsyncAPI 3.0 document, written as JSON (which YAML reads), with one
 * channel whose message's payload is the first schema of the shape.
 */

/** A spec whose components.schemas are `schemas`, its one message's payload `payload`. */
function specWith(schemas: Record<string, unknown>, payload: unknown): string {
  return JSON.stringify({
    asyncapi: '3.0.0',
    info: { title: 'Large', version: '1.0.0' },
    channels: { things: { address: 'things', messages: { Thing: { payload } } } },
    operations: { onThings: { action: 'receive', channel: { $ref: '#/channels/things' } } },
    components: { schemas },
  });
}

/** `n` independent record schemas S0 … S(n-1), each with two properties. */
export function flatSpec(n: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    schemas[`S${i}`] = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  return specWith(schemas, { $ref: '#/components/schemas/S0' });
}

/** A chain of `n` `$ref`s: S0 is only a $ref to S1, … S(n-1) to S(n), a string. */
export function refChainSpec(n: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
  schemas[`S${n}`] = { type: 'string' };
  return specWith(schemas, { $ref: '#/components/schemas/S0' });
}

/** A string schema with an enum of `n` values. */
export function enumSpec(n: number): string {
  const values = Array.from({ length: n }, (_, i) => `v${i}`);
  return specWith({ Big: { type: 'string', enum: values } }, { $ref: '#/components/schemas/Big' });
}

/** An object schema nested `depth` levels deep through `properties.child`. */
export function deepSpec(depth: number): string {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { child: node } };
  return specWith({ Deep: node }, { $ref: '#/components/schemas/Deep' });
}
