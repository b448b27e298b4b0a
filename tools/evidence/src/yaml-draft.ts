import { newRecordName, SAME_RECORD } from './spec-names';
import type { DeriveTsEvidence, Field, MethodEvidence, Shape } from './shape';

/** Decimal fields a client sends: the spec takes them as `DecimalInput` (string or number: the document's rule). */
export const DECIMAL_PARAMS = new Set([
  'amount',
  'amount_in_underlying',
  'cash_transfer',
  'expected_filled_amount',
  'extra_fee',
  'initial_deposit',
  'initial_share_price_usd',
  'limit_price',
  'max_fee',
  'max_fee_usd',
  'max_total_cost',
  'min_total_cost',
  'mmp_amount_limit',
  'mmp_delta_limit',
  'mtm_cap',
  'partial_fill_step',
  'percent_of_acc',
  'price',
  'price_limit',
  'share_price',
  'shares_to_burn',
  'trigger_price',
]);

/** A whole number by its name (derive-ts types every number as `number`): ids, timestamps, seconds, counts. */
const isWhole = (name: string) =>
  /(^|_)(id|timestamp|sec|secs|count|page|page_size|num_pages|decimals|nonce|block|start|end|from|to)$/.test(name) ||
  /_(id|ids|timestamp|sec)$/.test(name) ||
  /^(timestamp|num_|page)/.test(name);

/** What a draft needs: the evidence, the spec's schema names, and the new records it has drafted so far. */
export class Drafter {
  /** New records (spec name → YAML block), in the order drafted. */
  readonly records = new Map<string, string>();
  /** Which derive-ts record each drafted name stands for (two records never share a name). */
  private readonly origin = new Map<string, string>();

  constructor(
    private readonly ev: DeriveTsEvidence,
    private readonly specSchemas: Set<string>,
    private readonly source: string,
  ) {}

  /** The spec's name of a derive-ts record, drafting it when the spec lacks it. */
  recordName(derive: string, input: boolean): string {
    const same = SAME_RECORD[derive];
    if (same && this.specSchemas.has(same)) return same;
    let name = newRecordName(derive);
    // Two derive-ts records whose short names meet keep their own long name.
    if (this.origin.has(name) && this.origin.get(name) !== derive) name = derive;
    this.origin.set(name, derive);
    if (this.specSchemas.has(name) && !this.records.has(name)) {
      throw new Error(`${derive}: its draft name ${name} is the spec's already; map it in SAME_RECORD or name it`);
    }
    if (!this.records.has(name)) {
      this.records.set(name, ''); // reserved: a record that refers to itself stops here
      this.records.set(name, this.recordYaml(name, derive, this.ev.records[derive]!, input));
    }
    return name;
  }

  /** A schema, one line of YAML flow style. */
  schema(s: Shape, input: boolean, fieldName = ''): string {
    const nullable = s.types.includes('null');
    const base = this.nonNull(s, input, fieldName);
    if (!nullable) return base;
    if (base.startsWith('{ $ref')) return `{ anyOf: [${base}, { type: 'null' }] }`;
    if (base === '{}') return base;
    return base.replace(/type: (\w+)/, "type: [$1, 'null']").replace(/enum: \[([^\]]*)\]/, 'enum: [$1, null]');
  }

  private nonNull(s: Shape, input: boolean, fieldName: string): string {
    const types = s.types.filter((t) => t !== 'null');
    if (types.includes('any') || types.length === 0) return '{}';
    if (s.ref) return ref(this.recordName(s.ref, input));
    if (s.anyOf) return `{ anyOf: [${s.anyOf.map((a) => this.schema(a, input)).join(', ')}] }`;
    if (s.enum) {
      const values = s.enum.map((v) => (typeof v === 'string' ? quote(v) : String(v))).join(', ');
      if (s.enumName && this.specSchemas.has(s.enumName)) return ref(s.enumName);
      return `{ type: ${types[0]}, enum: [${values}] }`;
    }
    if (types.length > 1) return `{ type: [${types.join(', ')}] }`;
    const t = types[0]!;
    if (t === 'array') return `{ type: array, items: ${s.items ? this.schema(s.items, input, fieldName) : '{}'} }`;
    if (t === 'object') {
      if (s.fields && s.fields.length > 0) throw new Error(`inline record at ${fieldName}: not drafted`);
      return `{ type: object, additionalProperties: ${s.values ? this.schema(s.values, input) : '{}'} }`;
    }
    if (t === 'string' && input && DECIMAL_PARAMS.has(fieldName)) return ref('DecimalInput');
    if (t === 'number' && isWhole(fieldName)) return '{ type: integer }';
    return `{ type: ${t} }`;
  }

  private recordYaml(name: string, derive: string, s: Shape, input: boolean): string {
    const fields: Field[] = s.fields ?? [];
    const lines = [`    ${name}:`, `      title: ${name}`, '      type: object'];
    const required = fields.filter((f) => f.required).map((f) => f.name);
    if (required.length > 0) lines.push(`      required: [${required.join(', ')}]`);
    if (fields.length > 0) {
      lines.push('      properties:');
      for (const f of fields) lines.push(`        ${f.name}: ${this.schema(f, input, f.name)}`);
    }
    if (s.values) lines.push(`      additionalProperties: ${this.schema(s.values, input)}`);
    lines.push(`      x-source: clients`, `      x-assumption: ${this.source}`);
    lines.splice(2, 0, `      description: '${derive} in derive-ts 3.0.13 (src/types/generated.ts).'`);
    return lines.join('\n');
  }

  /** The payload schema of a method's params or result: a `$ref`, or an inline schema for a scalar or list. */
  payload(s: Shape, input: boolean): string {
    if (input && s.types.length === 1 && s.types[0] === 'null') return "{ type: [object, 'null'] }";
    return this.schema(s, input);
  }
}

const ref = (name: string) => `{ $ref: '#/components/schemas/${name}' }`;
const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** `private/get_account` → `PrivateGetAccount`. */
export const pascal = (method: string) =>
  method
    .split(/[/_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The YAML of one method: its operation, its two messages, and the channel's message entries. */
export function methodDraft(
  name: string,
  m: MethodEvidence,
  d: Drafter,
  types: { params: string; result: string },
  assumption: string,
) {
  const id = pascal(name);
  const operation = [
    `  ${id.charAt(0).toLowerCase()}${id.slice(1)}:`,
    '    action: send',
    "    channel: { $ref: '#/channels/rpc' }",
    `    summary: '${name}, typed from derive-ts 3.0.13.'`,
    `    description: 'Params ${types.params}, result ${types.result} ` +
      `(derive-ts 3.0.13, src/types/generated.ts, EndpointMap).'`,
    `    messages: [{ $ref: '#/channels/rpc/messages/${id}Request' }]`,
    '    reply:',
    "      channel: { $ref: '#/channels/rpc' }",
    `      messages: [{ $ref: '#/channels/rpc/messages/${id}Response' }]`,
    `    x-method: ${name}`,
    '    x-source: clients',
    '    x-transports: [ws, http]',
    `    x-http-path: /v3/${name}`,
    '    x-rate-limit-class: non_matching',
    `    x-auth: ${name.startsWith('private/') ? 'login' : 'none'}`,
    `    x-assumption: ${assumption}`,
  ].join('\n');
  const messages = [
    `    ${id}Request:`,
    `      name: ${id}Request`,
    `      payload: ${d.payload(m.params, true)}`,
    `    ${id}Response:`,
    `      name: ${id}Response`,
    `      payload: ${d.payload(m.result, false)}`,
  ].join('\n');
  const channel = [
    `      ${id}Request: { $ref: '#/components/messages/${id}Request' }`,
    `      ${id}Response: { $ref: '#/components/messages/${id}Response' }`,
  ].join('\n');
  return { operation, messages, channel };
}
