/**
 * A record's fields as a table: in full on the record's own entry, and compact (name, type, required,
 * constraints) where the record is used, on a channel's and a method's section, so a reader sees the
 * payload without leaving the page. The compact rows carry no anchors (every field keeps one address,
 * its full row) and no links of their own (the record's name above links there, with descriptions,
 * defaults and what the document leaves open): links on every row would take the site past 300 kB.
 */
import type { FieldModel } from '../../model/types';
import { constraintList, fieldSchema, typeConstraints } from './constraints';
import { type Block, type Inline, type Row } from './ir';
import { withoutEmptyColumns, type PageKit } from './page-kit';

/**
 * A field's constraints: its own (also where the record is built with `allOf`), else (`withNamed`) those of
 * the named type it is (`Decimal`: its pattern; `Int64`: its bounds), so a row says what a value must
 * look like. The records page leaves the named type's out (`withNamed` false): its section is on the same
 * page, one link away, and repeating it in 130 rows would take the site past its 300 kB.
 */
export function fieldConstraints(kit: PageKit, record: string, field: string, withNamed = true): Inline[] {
  const found = fieldSchema(kit.model, record, field);
  if (!found) return [];
  const own = constraintList(found.schema, found.pointer, kit.model.exactIntegers);
  if (own.length || !withNamed) return own;
  const f = kit.model.types.find((t) => t.name === record)?.fields?.find((x) => x.name === field);
  // Only a field that is the named type (or it or null), not an array or a map of it.
  const named = f && f.refs.length === 1 && f.type.replace(/ \| null$/, '') === f.refs[0] ? f.refs[0] : undefined;
  return named ? typeConstraints(kit.model, named) : [];
}

/** A field's type expression, `| null` added when the field is nullable and the type does not say so. */
export const fieldType = (f: FieldModel): string =>
  f.nullable && !/\bnull\b/.test(f.type) ? `${f.type} | null` : f.type;

/**
 * The record whose fields show where a payload is used: the payload's record, or that of each element of an
 * array type.
 */
export function shownRecord(kit: PageKit, name: string | null): string | null {
  const t = name ? kit.model.types.find((x) => x.name === name) : undefined;
  if (t?.kind === 'array' && t.refs.length === 1) {
    const items = kit.model.schemas[t.name]?.items as { $ref?: string } | undefined;
    if (items?.$ref === `#/definitions/${t.refs[0]}`) return t.refs[0]!;
  }
  return name;
}

/**
 * The compact field table of a record used by a channel or a method; nothing for a record without fields or
 * another kind.
 */
export function usedFields(kit: PageKit, record: string | null): Block[] {
  const shown = shownRecord(kit, record);
  const t = shown ? kit.model.types.find((x) => x.name === shown) : undefined;
  if (!t || t.kind !== 'record' || !t.fields?.length) return [];
  const rows = t.fields.map((f): Row => ({
    cells: [
      [f.name],
      kit.typeExpr(fieldType(f), f.refs),
      [f.required ? 'yes' : 'no'],
      fieldConstraints(kit, t.name, f.name),
    ],
  }));
  const lead: Block[] =
    shown !== record ? [{ kind: 'p', text: ['Each element is ', ...kit.typeLink(t.name), ':'] }] : [];
  const table = withoutEmptyColumns(['Field', 'Type', 'Required', 'Constraints'], rows, 3);
  // The constraints, monospace by style, need no code spans: a tenth of these tables' weight.
  return [...lead, table.kind === 'table' && table.head.length === 4 ? { ...table, monoLast: true } : table];
}
