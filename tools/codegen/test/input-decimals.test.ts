/**
 * The document's decimal convention: "a string holding a human-scale value ... Input also accepts a
 * JSON number." Every field a client sends whose type is decimal (method params, assumed params, the
 * login values) must accept a JSON number as well; everything the server sends stays a strict string.
 * The login timestamp, "a decimal string of milliseconds", follows the same rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { modelFromSpec, type ApiModel, type JsonSchema } from '../src/index';
import { ourModel, repoRoot } from './helpers';

/** Named string schemas of a decimal value, and the input forms that wrap them. */
const DECIMAL_STRINGS = new Set(['Decimal', 'NonNegativeDecimal']);
const INPUT_FORMS = new Set(['DecimalInput', 'NonNegativeDecimalInput', 'LoginTimestampInput']);
/** Inline string patterns of a decimal value (the Decimal pattern, and a decimal string of whole milliseconds). */
const DECIMAL_PATTERNS = new Set(['^-?[0-9]+(\\.[0-9]{1,12})?$', '^[0-9]+(\\.[0-9]{1,12})?$', '^[0-9]+$']);

let model: ApiModel;
let ajv: Ajv;
beforeAll(async () => {
  // INPUT_DECIMALS_SPEC: run the audit on another copy of the spec (to see it fail on one that breaks the rule).
  const other = process.env.INPUT_DECIMALS_SPEC;
  model = other ? await modelFromSpec(other, repoRoot) : await ourModel();
  ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'spec', definitions: model.schemas });
});

const refName = (s: JsonSchema) => (typeof s.$ref === 'string' ? s.$ref.replace('#/definitions/', '') : null);
const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Whether a schema admits a JSON number (directly, or as a member of an anyOf / oneOf). */
const admitsNumber = (s: JsonSchema): boolean =>
  s.type === 'number' ||
  s.type === 'integer' ||
  (Array.isArray(s.type) && s.type.some((t) => t === 'number' || t === 'integer')) ||
  [...((s.anyOf as JsonSchema[]) ?? []), ...((s.oneOf as JsonSchema[]) ?? [])].some(admitsNumber);

/**
 * Places in a schema (following named refs, each once) where a decimal is only a string: a $ref to a
 * decimal string schema, or an inline decimal-patterned string, not inside a form that admits a number.
 */
function stringOnlyDecimals(schema: unknown, where: string, seen = new Set<string>(), inInput = false): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => stringOnlyDecimals(s, `${where}/${i}`, seen, inInput));
  if (!isObj(schema)) return [];
  const name = refName(schema);
  if (name !== null) {
    if (DECIMAL_STRINGS.has(name)) return inInput ? [] : [`${where} → ${name}`];
    if (seen.has(name)) return [];
    seen.add(name);
    return stringOnlyDecimals(model.schemas[name], `${where}(${name})`, seen, inInput || INPUT_FORMS.has(name));
  }
  const here =
    !inInput && schema.type === 'string' && typeof schema.pattern === 'string' && DECIMAL_PATTERNS.has(schema.pattern)
      ? [`${where} (inline ${schema.pattern})`]
      : [];
  const within = inInput || admitsNumber(schema);
  return [
    ...here,
    ...Object.entries(schema)
      .filter(([k]) => k !== 'examples' && k !== 'default' && k !== 'const' && k !== 'enum')
      .flatMap(([k, v]) =>
        stringOnlyDecimals(v, `${where}/${k}`, seen, within && (k === 'anyOf' || k === 'oneOf') ? true : inInput),
      ),
  ];
}

/** Places in a schema (following named refs) that use an input form: outputs must never accept a number. */
function inputForms(schema: unknown, where: string, seen = new Set<string>()): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => inputForms(s, `${where}/${i}`, seen));
  if (!isObj(schema)) return [];
  const name = refName(schema);
  if (name !== null) {
    if (INPUT_FORMS.has(name)) return [`${where} → ${name}`];
    if (seen.has(name)) return [];
    seen.add(name);
    return inputForms(model.schemas[name], `${where}(${name})`, seen);
  }
  return Object.entries(schema).flatMap(([k, v]) => inputForms(v, `${where}/${k}`, seen));
}

describe('every decimal a client sends also accepts a JSON number', () => {
  it('no params schema (documented or assumed) takes a decimal as a string only', () => {
    const inputs = model.methods.flatMap((m) => [
      [`${m.name} params`, m.params.schema] as const,
      ...(m.assumedParams ? [[`${m.name} assumed params`, { $ref: `#/definitions/${m.assumedParams}` }] as const] : []),
    ]);
    expect(inputs.length).toBeGreaterThan(10);
    expect(inputs.flatMap(([where, schema]) => stringOnlyDecimals(schema, where))).toEqual([]);
  });

  it('the audit finds a string-only decimal where there is one (so it can fail)', () => {
    expect(
      stringOnlyDecimals({ type: 'object', properties: { price: { $ref: '#/definitions/Decimal' } } }, 'probe'),
    ).toEqual(['probe/properties/price → Decimal']);
    expect(stringOnlyDecimals({ type: 'string', pattern: '^[0-9]+$' }, 'probe')).toEqual(['probe (inline ^[0-9]+$)']);
    expect(stringOnlyDecimals({ $ref: '#/definitions/DecimalInput' }, 'probe')).toEqual([]);
  });

  it.each([
    ['a numeric timestamp', { timestamp: 1700000000000 }, true],
    ['a decimal string timestamp', { timestamp: '1700000000000' }, true],
    ['a negative number', { timestamp: -1 }, false],
    ['a fraction', { timestamp: 1700000000000.5 }, false],
    ['a number past 2^53 (not exact)', { timestamp: 2 ** 53 }, false],
    ['a string that is not digits', { timestamp: '17e11' }, false],
    ['a boolean', { timestamp: true }, false],
  ])('login values in params (public/login, and HTTP bodies that carry them): %s → %s', (_name, params, valid) => {
    const carriers = model.methods.filter(
      (m) =>
        m.params.record !== null &&
        isObj((model.schemas[m.params.record]?.properties as JsonSchema | undefined)?.timestamp),
    );
    expect(carriers.map((m) => m.name)).toContain('public/login');
    for (const m of carriers) {
      const validate = ajv.getSchema(`spec#/definitions/${m.params.record}`)!;
      expect(
        validate({
          ...(m.params.record === 'PublicLoginParams' ? {} : { wallet: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72' }),
          ...params,
        }),
        `${m.name}: ${JSON.stringify(validate.errors)}`,
      ).toBe(valid);
    }
  });
});

describe('what the server sends stays a strict decimal string', () => {
  it('no result or channel payload uses an input form', () => {
    const outputs = [
      ...model.methods.flatMap((m) => [[`${m.name} result`, m.result.schema] as const]),
      ...model.channels.map((c) => [`channel ${c.id}`, c.payload.schema] as const),
    ];
    expect(outputs.flatMap(([where, schema]) => inputForms(schema, where))).toEqual([]);
  });

  it('a Decimal field sent as a JSON number is refused', () => {
    const decimal = ajv.getSchema('spec#/definitions/Decimal')!;
    expect(decimal('3000.5')).toBe(true);
    expect(decimal(3000.5)).toBe(false);
  });
});
