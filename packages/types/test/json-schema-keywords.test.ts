/** The one list of JSON Schema keywords: each keyword that holds schemas is in exactly the lists its value allows. */
import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_KEYWORDS,
  DATA_KEYWORDS,
  SCHEMA_LIST,
  SCHEMA_MAP,
  SCHEMA_ONE,
  holdsSchemas,
} from '../src/json-schema-keywords';

describe('JSON Schema keywords', () => {
  it('knows where a schema holds schemas, in every draft the loader accepts', () => {
    for (const k of ['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'not', 'if', 'then'])
      expect(SCHEMA_ONE.has(k), k).toBe(true);
    for (const k of ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'])
      expect(SCHEMA_MAP.has(k), k).toBe(true);
    for (const k of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) expect(SCHEMA_LIST.has(k), k).toBe(true);
    // draft-07's items is one schema or a list of them.
    expect(SCHEMA_ONE.has('items') && SCHEMA_LIST.has('items')).toBe(true);
    for (const k of ['type', 'enum', 'minLength', 'pattern', 'description']) expect(holdsSchemas(k), k).toBe(false);
  });

  it('never takes data for a schema', () => {
    for (const k of DATA_KEYWORDS) expect(holdsSchemas(k), k).toBe(false);
    expect([...DATA_KEYWORDS].sort()).toEqual(['const', 'default', 'enum', 'example', 'examples']);
    for (const k of ['examples', 'example', 'default']) expect(ANNOTATION_KEYWORDS).toContain(k);
  });
});
