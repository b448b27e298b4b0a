/**
 * A record's fields as a table: in full on the record's own entry, and compact (name, type, required,
 * constraints) where the record is used, on a channel's and a method's section, so a reader sees the
 * payload without leaving the page. The compact rows carry no anchors (every field keeps one address,
 * its full row) and no links of their own (the record's name above links there, with descriptions,
 * defaults and what the document leaves open): links on every row would take the site past 300 kB.
 */
import type { FieldModel } from '../../model/types';
import { constraintList } from './constraints';
import { type Block, type Inline, type Row } from './ir';
import { withoutEmptyColumns, type PageKit } from './page-kit';

/** A field's own constraints (those of a named type show on its own entry). */
export function fieldConstraints(kit: PageKit, record: string, field: string): Inline[] {
  const property = ((kit.model.schemas[record] ?? {}).properties as Record<string, Record<string, unknown>> | undefined)?.[field];
  return property ? constraintList(property, `#/components/schemas/${record}/properties/${field}`, kit.model.exactIntegers) : [];
}

/** A field's type expression, `| null` added when the field is nullable and the type does not say so. */
export const fieldType = (f: FieldModel): string => (f.nullable && !/\bnull\b/.test(f.type) ? `${f.type} | null` : f.type);

/** The compact field table of a record used by a channel or a method; nothing for a record without fields or another kind. */
export function usedFields(kit: PageKit, record: string | null): Block[] {
  const t = record ? kit.model.types.find((x) => x.name === record) : undefined;
  if (!t || t.kind !== 'record' || !t.fields?.length) return [];
  const rows = t.fields.map(
    (f): Row => ({
      cells: [[f.name], kit.typeExpr(fieldType(f), f.refs), [f.required ? 'yes' : 'no'], fieldConstraints(kit, t.name, f.name)],
    }),
  );
  return [withoutEmptyColumns(['Field', 'Type', 'Required', 'Constraints'], rows, 3)];
}
