/** The records and enumerations pages: every named schema with its fields or values. */
import type { TypeModel } from '../../model/types';
import { code, joined, link, prettyJson, rich, tag, type Block, type Inline, type Page, type Row } from './ir';
import { KIND_LABEL, plural, withoutEmptyColumns, type PageKit } from './page-kit';
import { PAGES } from './site';
import { KEYS, markExact, typeConstraints } from './constraints';
import { fieldConstraints, fieldType } from './page-fields';
import { fieldSchema } from './constraints';

/** One named type: its fields or values or schema, what it refers to, what uses it, its examples. */
function typeSection(kit: PageKit, t: TypeModel): Block[] {
  const s = kit.site;
  const pointer = `#/components/schemas/${t.name}`;
  // Records and enumerations sit under their own headings; only the other kinds need saying.
  const kind = t.kind === 'record' || t.kind === 'enum' ? [] : [tag(KIND_LABEL[t.kind], 'kind')];
  const tags: Inline[] = [
    ...kind,
    ...(t.kind === 'record' && t.open === false ? [tag('closed', 'kind')] : []),
    ...kit.markerTags(pointer, t.assumption),
  ];
  const blocks: Block[] = [
    { kind: 'h', level: t.kind === 'enum' ? 2 : 3, id: s.typeRef(t.name)!.anchor!, text: [t.name], tags },
  ];
  if (t.description) blocks.push({ kind: 'p', text: rich(t.description) });
  blocks.push(...kit.markers(pointer, t.assumption));
  if (t.kind === 'record' && t.fields) {
    const rows = t.fields.map((f): Row => {
      const ns = s.notShownUnder(`${pointer}/properties/${f.name}`)[0];
      const desc: Inline[] = [...rich(f.description)];
      if (ns)
        desc.push(
          desc.length ? ' ' : '',
          link(s.notShownRef(ns), tag('not shown', 'not-shown')),
          ' ',
          ...rich(ns.text),
        );
      return {
        id: s.fieldRef(t.name, f.name).anchor!,
        cells: [
          [code(f.name)],
          kit.typeExpr(fieldType(f), f.refs),
          [f.required ? 'yes' : 'no'],
          f.default === undefined
            ? []
            : [code(kit.json(f.default, `${fieldSchema(kit.model, t.name, f.name)?.pointer}/default`, 0))],
          fieldConstraints(kit, t.name, f.name, false),
          desc,
        ],
      };
    });
    blocks.push(withoutEmptyColumns(['Field', 'Type', 'Required', 'Default', 'Constraints', 'Description'], rows, 3));
  } else if (t.kind === 'enum' && t.values) {
    const type = (kit.model.schemas[t.name] ?? {}).type;
    blocks.push({
      kind: 'p',
      text: [plural(t.values.length, 'value'), typeof type === 'string' ? [' (', code(type), '):'] : ':'].flat(),
    });
    blocks.push({
      kind: 'list',
      chips: true,
      items: t.values.map((v) => ({ id: s.valueRef(t.name, v).anchor!, text: [code(s.valueText(t.name, v))] })),
    });
  } else {
    const { title: _t, description: _d, examples: _e, ...schema } = kit.model.schemas[t.name] ?? {};
    // A union's per branch (`pattern … or minimum …`), a scalar's its own.
    const constraints = typeConstraints(kit.model, t.name);
    // A type and its constraints say all of such a schema: its JSON would only repeat them, escaped.
    const plain =
      typeof schema.type === 'string' &&
      Object.keys(schema).every((k) => k === 'type' || (KEYS as readonly string[]).includes(k));
    if (plain)
      blocks.push({
        kind: 'p',
        text: ['Type ', code(schema.type as string), ...(constraints.length ? ['; ', ...constraints] : []), '.'],
      });
    else {
      if (constraints.length) blocks.push({ kind: 'p', text: ['Constraints: ', ...constraints, '.'] });
      blocks.push({
        kind: 'code',
        text: prettyJson(markExact(schema, kit.model.exactIntegers, pointer)),
        caption: ['Schema'],
      });
    }
  }
  // A record's field types already link what it refers to; other kinds show a schema, so list them.
  const refs = t.kind === 'record' ? [] : [...new Set(t.refs)].filter((r) => r !== t.name && s.type(r));
  if (refs.length)
    blocks.push({ kind: 'p', names: true, text: ['Refers to: ', ...joined(refs.map((r) => kit.typeLink(r)))] });
  const used = kit.usedBy.get(t.name);
  if (used?.length) blocks.push({ kind: 'p', names: true, text: ['Used by: ', ...joined(used)] });
  for (const [i, e] of (kit.examples.schemas.get(t.name) ?? []).entries()) {
    if (i === 0 && t.kind === 'scalar') {
      blocks.push({
        kind: 'p',
        text: [
          'Examples: ',
          ...joined(
            (kit.examples.schemas.get(t.name) ?? []).map((x, j) => [code(kit.json(x, `${pointer}/examples/${j}`, 0))]),
          ),
        ],
      });
      break;
    }
    blocks.push({
      kind: 'code',
      text: kit.json(e, `${pointer}/examples/${i}`),
      caption: [`Example ${i + 1}, from the spec.`],
    });
  }
  return blocks;
}

/** The records page: every record, then the other named types. */
export function recordsPage(kit: PageKit): Page {
  const types = kit.model.types.filter((t) => t.kind !== 'enum');
  const records = types.filter((t) => t.kind === 'record');
  const others = types.filter((t) => t.kind !== 'record');
  const chips = (list: TypeModel[]): Block => ({
    kind: 'list',
    chips: true,
    items: list.map((t) => ({ text: kit.typeLink(t.name) })),
  });
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Records and types'] },
    {
      kind: 'p',
      text: [
        `${plural(records.length, 'record')} and ${plural(others.length, 'other named type')} (scalars, unions, arrays and open shapes). `,
        'A record accepts fields beyond those listed unless it is marked closed. Nullable fields show ',
        code('| null'),
        '. ',
        link({ page: PAGES.enums }, 'Enumerations'),
        ' have their own page.',
      ],
    },
    { kind: 'h', level: 2, id: 'contents', text: ['Contents'] },
    { kind: 'p', text: [link({ page: PAGES.records, anchor: 'records' }, 'Records')] },
    chips(records),
    { kind: 'p', text: [link({ page: PAGES.records, anchor: 'other-types' }, 'Other types')] },
    chips(others),
    { kind: 'h', level: 2, id: 'records', text: ['Records'] },
    ...records.flatMap((t) => typeSection(kit, t)),
    { kind: 'h', level: 2, id: 'other-types', text: ['Other types'] },
    ...others.flatMap((t) => typeSection(kit, t)),
  ];
  return { path: PAGES.records, title: 'Records and types', nav: 'records', blocks };
}

/** The enumerations page: every enumeration and its values. */
export function enumsPage(kit: PageKit): Page {
  const enums = kit.model.types.filter((t) => t.kind === 'enum');
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Enumerations'] },
    {
      kind: 'p',
      text: [
        `${plural(enums.length, 'enumeration')}. Every value has its own anchor. Enumerations whose values the document does not show are open strings (see `,
        link({ page: PAGES.records, anchor: 'other-types' }, 'other types'),
        ').',
      ],
    },
    { kind: 'list', chips: true, items: enums.map((t) => ({ text: kit.typeLink(t.name) })) },
    ...enums.flatMap((t) => typeSection(kit, t)),
  ];
  return { path: PAGES.enums, title: 'Enumerations', nav: 'enums', blocks };
}
