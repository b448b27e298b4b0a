/** The records and enumerations pages: every named schema with its fields or values. */
import type { FieldModel, TypeModel } from '../../model/types';
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
  if (t.kind === 'record' && t.fields) blocks.push(fieldTable(kit, t, t.fields, pointer));
  else if (t.kind === 'enum' && t.values) blocks.push(...enumValues(kit, t, t.values));
  else blocks.push(...schemaBlocks(kit, t, pointer));
  // A record's field types already link what it refers to; other kinds show a schema, so list them.
  const refs = t.kind === 'record' ? [] : [...new Set(t.refs)].filter((r) => r !== t.name && s.type(r));
  if (refs.length)
    blocks.push({ kind: 'p', names: true, text: ['Refers to: ', ...joined(refs.map((r) => kit.typeLink(r)))] });
  const used = kit.usedBy.get(t.name);
  if (used?.length) blocks.push({ kind: 'p', names: true, text: ['Used by: ', ...joined(used)] });
  blocks.push(...typeExamples(kit, t, pointer));
  return blocks;
}

/** A record's fields: type, required, default, constraints, description (and what is not shown of each). */
function fieldTable(kit: PageKit, t: TypeModel, fields: FieldModel[], pointer: string): Block {
  const s = kit.site;
  const rows = fields.map((f): Row => {
    const ns = s.notShownUnder(`${pointer}/properties/${f.name}`)[0];
    const desc: Inline[] = [...rich(f.description)];
    if (ns)
      desc.push(desc.length ? ' ' : '', link(s.notShownRef(ns), tag('not shown', 'not-shown')), ' ', ...rich(ns.text));
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
  return withoutEmptyColumns(['Field', 'Type', 'Required', 'Default', 'Constraints', 'Description'], rows, 3);
}

/** An enumeration's values, each with its anchor. */
function enumValues(kit: PageKit, t: TypeModel, values: Array<string | number>): Block[] {
  const s = kit.site;
  const type = (kit.model.schemas[t.name] ?? {}).type;
  return [
    {
      kind: 'p',
      text: [plural(values.length, 'value'), typeof type === 'string' ? [' (', code(type), '):'] : ':'].flat(),
    },
    {
      kind: 'list',
      chips: true,
      items: values.map((v) => ({ id: s.valueRef(t.name, v).anchor!, text: [code(s.valueText(t.name, v))] })),
    },
  ];
}

/** Any other named type: its type and constraints in a sentence when they say all, else its schema. */
function schemaBlocks(kit: PageKit, t: TypeModel, pointer: string): Block[] {
  const { title: _t, description: _d, examples: _e, ...schema } = kit.model.schemas[t.name] ?? {};
  // A union's per branch (`pattern … or minimum …`), a scalar's its own.
  const constraints = typeConstraints(kit.model, t.name);
  // A type and its constraints say all of such a schema: its JSON would only repeat them, escaped.
  const plain =
    typeof schema.type === 'string' &&
    Object.keys(schema).every((k) => k === 'type' || (KEYS as readonly string[]).includes(k));
  if (plain)
    return [
      {
        kind: 'p',
        text: ['Type ', code(schema.type as string), ...(constraints.length ? ['; ', ...constraints] : []), '.'],
      },
    ];
  return [
    ...(constraints.length ? [{ kind: 'p', text: ['Constraints: ', ...constraints, '.'] } as Block] : []),
    { kind: 'code', text: prettyJson(markExact(schema, kit.model.exactIntegers, pointer)), caption: ['Schema'] },
  ];
}

/** A type's examples from the spec: a scalar's in one line, others one block each. */
function typeExamples(kit: PageKit, t: TypeModel, pointer: string): Block[] {
  const examples = kit.examples.schemas.get(t.name) ?? [];
  if (examples.length > 0 && t.kind === 'scalar')
    return [
      {
        kind: 'p',
        text: ['Examples: ', ...joined(examples.map((x, j) => [code(kit.json(x, `${pointer}/examples/${j}`, 0))]))],
      },
    ];
  return examples.map((e, i) => ({
    kind: 'code',
    text: kit.json(e, `${pointer}/examples/${i}`),
    caption: [`Example ${i + 1}, from the spec.`],
  }));
}

/**
 * The records page: every record, then the other named types. Where the site splits by group
 * (groups.ts), each group's own records are on its records page, and this common page keeps the
 * records several groups share, the other named types, and contents linking every record.
 */
export function recordsPage(kit: PageKit): Page[] {
  const types = kit.model.types.filter((t) => t.kind !== 'enum');
  const groups = kit.site.layout.records;
  const own = new Set(groups.flatMap((g) => g.items));
  const records = types.filter((t) => t.kind === 'record' && !own.has(t));
  const others = types.filter((t) => t.kind !== 'record');
  const all = types.filter((t) => t.kind === 'record').length;
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Records and types'] },
    {
      kind: 'p',
      text: [
        `${plural(all, 'record')} and ${plural(others.length, 'other named type')}` +
          ` (scalars, unions, arrays and open shapes). `,
        ...(groups.length
          ? [
              "A record used by one group's channels and methods only is on that group's " +
                'page; this page has the records several groups share (or none uses) and ' +
                'the other types. ',
            ]
          : []),
        ...ABOUT_RECORDS,
      ],
    },
    { kind: 'h', level: 2, id: 'contents', text: ['Contents'] },
    {
      kind: 'p',
      text: [link({ page: PAGES.records, anchor: 'records' }, groups.length ? 'Shared records' : 'Records')],
    },
    chips(kit, records),
    ...groups.flatMap((g): Block[] => [{ kind: 'p', text: [link({ page: g.page }, g.title)] }, chips(kit, g.items)]),
    { kind: 'p', text: [link({ page: PAGES.records, anchor: 'other-types' }, 'Other types')] },
    chips(kit, others),
    { kind: 'h', level: 2, id: 'records', text: [groups.length ? 'Shared records' : 'Records'] },
    ...records.flatMap((t) => typeSection(kit, t)),
    { kind: 'h', level: 2, id: 'other-types', text: ['Other types'] },
    ...others.flatMap((t) => typeSection(kit, t)),
  ];
  return [
    { path: PAGES.records, title: 'Records and types', nav: 'records', blocks },
    ...groups.map((g) => groupRecordsPage(kit, g)),
  ];
}

/** A group's own records page: the records only that group's channels and methods use. */
function groupRecordsPage(kit: PageKit, g: PageKit['site']['layout']['records'][number]): Page {
  return {
    path: g.page,
    title: `Records: ${g.title}`,
    nav: g.page,
    blocks: [
      { kind: 'h', level: 1, text: ['Records: ', g.title] } as Block,
      {
        kind: 'p',
        text: [
          `${plural(g.items.length, 'record')} that only the ${g.title} channels and ` +
            `methods use. Records several groups share and the other named types are on `,
          link({ page: PAGES.records }, 'Records and types'),
          '. ',
          ...ABOUT_RECORDS,
        ],
      } as Block,
      chips(kit, g.items),
      { kind: 'h', level: 2, id: 'records', text: ['Records'] } as Block,
      ...g.items.flatMap((t) => typeSection(kit, t)),
    ],
  };
}

/** How every records page reads. */
const ABOUT_RECORDS: Inline[] = [
  'A record accepts fields beyond those listed unless it is marked closed. Nullable fields show ',
  code('| null'),
  '. ',
  link({ page: PAGES.enums }, 'Enumerations'),
  ' have their own page.',
];

/** A chip list of named types, each linked to its section. */
const chips = (kit: PageKit, list: TypeModel[]): Block => ({
  kind: 'list',
  chips: true,
  items: list.map((t) => ({ text: kit.typeLink(t.name) })),
});

/** The enumerations page: every enumeration and its values. */
export function enumsPage(kit: PageKit): Page {
  const enums = kit.model.types.filter((t) => t.kind === 'enum');
  const blocks: Block[] = [
    { kind: 'h', level: 1, text: ['Enumerations'] },
    {
      kind: 'p',
      text: [
        `${plural(enums.length, 'enumeration')}. Every value has its own anchor. ` +
          `Enumerations whose values the document does not show are open strings (see `,
        link({ page: PAGES.records, anchor: 'other-types' }, 'other types'),
        ').',
      ],
    },
    { kind: 'list', chips: true, items: enums.map((t) => ({ text: kit.typeLink(t.name) })) },
    ...enums.flatMap((t) => typeSection(kit, t)),
  ];
  return { path: PAGES.enums, title: 'Enumerations', nav: 'enums', blocks };
}
