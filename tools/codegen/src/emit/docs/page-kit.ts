/**
 * What every page builder shares: the model, the site map and the examples, the "used by" index of
 * named types, and the small pieces (type links, markers, schema blocks) that pages are made of.
 */
import type { ApiModel, PayloadModel, TypeModel } from '../../model/types';
import type { Examples } from './examples';
import { code, joined, link, prettyJson, rich, tag, toJson, type Block, type Inline, type Row } from './ir';
import { markExact } from './constraints';
import type { SiteMap } from './site';

/** How each kind of named type is labelled. */
export const KIND_LABEL: Record<TypeModel['kind'], string> = {
  record: 'record',
  enum: 'enumeration',
  scalar: 'scalar',
  union: 'one of',
  array: 'array',
  open: 'open',
};

/** How each transport is named for people. */
export const TRANSPORT_LABEL = { ws: 'WebSocket', http: 'HTTP' } as const;

/** `3 channels`, `1 channel`. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** A table without the columns (from `keep` on) that are empty in every row: most records have no defaults. */
export function withoutEmptyColumns(head: string[], rows: Row[], keep: number): Block {
  const used = head.map((_, i) => i < keep || rows.some((r) => (r.cells[i] ?? []).length > 0));
  return {
    kind: 'table',
    mono: 2,
    head: head.filter((_, i) => used[i]),
    rows: rows.map((r) => ({ ...r, cells: r.cells.filter((_, i) => used[i]) })),
  };
}

/** The shared state and pieces of the page builders (one per site). */
export class PageKit {
  /** For each named type, links to the places that use it. */
  readonly usedBy = new Map<string, Inline[][]>();

  /** Indexes, once, which records, channels and methods use each named type. */
  constructor(
    readonly model: ApiModel,
    readonly site: SiteMap,
    readonly examples: Examples,
  ) {
    const add = (name: string | null, by: Inline[]) => {
      if (!name || !site.type(name)) return;
      const list = this.usedBy.get(name) ?? [];
      list.push(by);
      this.usedBy.set(name, list);
    };
    // Records use types through fields: name the fields (up to three), so the link lands on the row.
    for (const t of model.types) {
      if (t.kind !== 'record' || !t.fields) {
        for (const r of new Set(t.refs)) add(r, this.typeLink(t.name));
        continue;
      }
      const byRef = new Map<string, string[]>();
      for (const f of t.fields) for (const r of new Set(f.refs)) byRef.set(r, [...(byRef.get(r) ?? []), f.name]);
      for (const [r, fields] of byRef) {
        add(
          r,
          fields.length <= 3
            ? joined(fields.map((f) => [link(site.fieldRef(t.name, f), code(`${t.name}.${f}`))]))
            : [...this.typeLink(t.name), ` (${fields.length} fields)`],
        );
      }
    }
    for (const c of model.channels) add(c.payload.record, [link(site.channel(c), code(c.address))]);
    for (const m of model.methods) {
      for (const r of new Set([m.params.record, m.result.record, m.assumedParams, m.assumedResult]))
        add(r, [link(site.method(m), code(m.name))]);
    }
  }

  // ---------- shared pieces ----------

  /** A type name linked to its section (plain code when the model has no such name). */
  typeLink(name: string): Inline[] {
    const ref = this.site.typeRef(name);
    return [ref ? link(ref, code(name)) : code(name)];
  }

  /** A type expression such as `array of Order | null`, its names linked. */
  typeExpr(expr: string, refs: string[]): Inline[] {
    const known = new Set(refs);
    const out: Inline[] = [];
    for (const part of expr.split(/([A-Za-z_][A-Za-z0-9_]*)/)) {
      if (part === '') continue;
      if (known.has(part) && this.site.typeRef(part)) out.push(link(this.site.typeRef(part)!, part));
      else out.push(part);
    }
    return [{ mono: out }];
  }

  /** A payload for people: its record linked (or array of it), or a pointer to the schema shown below. */
  payload(p: PayloadModel): Inline[] {
    if (p.record) return p.array ? ['array of ', ...this.typeLink(p.record)] : this.typeLink(p.record);
    return [p.array ? 'an array (schema below)' : 'a value (schema below)'];
  }

  /** The not-shown and assumption notes of one place of the spec. */
  markers(pointer: string, assumption: string | undefined): Block[] {
    const blocks: Block[] = this.site.notShownUnder(pointer).map((n) => ({
      kind: 'note' as const,
      tone: 'not-shown' as const,
      text: [
        { strong: ['Not shown.'] },
        ' ',
        ...rich(n.text),
        ' ',
        link(this.site.notShownRef(n), 'What the document leaves open'),
      ],
    }));
    if (assumption) {
      const a = this.model.assumptions.find((x) => x.id === assumption);
      blocks.push({
        kind: 'note',
        tone: 'assumption',
        text: [
          { strong: ['Assumption.'] },
          ' ',
          ...(a ? rich(a.title + '.') : []),
          ' ',
          link(this.site.assumptionRef(assumption), 'Assumption ', code(assumption)),
        ],
      });
    }
    return blocks;
  }

  /** The small not-shown and assumption tags of a heading, linked to the page that explains them. */
  markerTags(pointer: string, assumption: string | undefined): Inline[] {
    const tags: Inline[] = [];
    const ns = this.site.notShownUnder(pointer)[0];
    if (ns) tags.push(link(this.site.notShownRef(ns), tag('not shown', 'not-shown')));
    if (assumption) tags.push(link(this.site.assumptionRef(assumption), tag('assumption', 'assumption')));
    return tags;
  }

  /**
   * A value of the spec as JSON, every integer beyond 2^53 as the spec writes it: laid out for reading
   * within `width` columns, or on one line (`width` 0). `pointer`: the value's place in the spec, when known.
   */
  json(value: unknown, pointer?: string, width = 80): string {
    const exact = markExact(value, this.model.exactIntegers, pointer);
    return width === 0 ? toJson(exact) : prettyJson(exact, 0, 0, width);
  }

  /** A schema shown as JSON, with a caption. */
  schemaBlock(schema: unknown, caption: Inline[]): Block {
    return { kind: 'code', text: this.json(schema), caption };
  }

  /** Assumptions cited on a server, as notes (the index shows them under the servers table). */
  markersInline(pointer: string, serverId: string): Block[] {
    const cites = this.model.assumptions.filter((a) => a.citedAt.includes(pointer));
    return cites.map((a) => ({
      kind: 'note' as const,
      tone: 'assumption' as const,
      text: [
        { strong: ['Assumption.'] },
        ` Server ${serverId}: `,
        ...rich(a.title + '.'),
        ' ',
        link(this.site.assumptionRef(a.id), 'Assumption ', code(a.id)),
      ],
    }));
  }

  /** Links to the assumptions that cite exactly this pointer. */
  citing(pointer: string): Inline[] {
    return this.model.assumptions
      .filter((a) => a.citedAt.includes(pointer))
      .flatMap((a) => [' ', link(this.site.assumptionRef(a.id), tag('assumption', 'assumption'))]);
  }
}
