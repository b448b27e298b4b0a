/**
 * The content of every page, as document trees: the overview, one page per channel and per method,
 * records, enumerations, errors, limits, login, and the page of what the document leaves open.
 */
import type { ApiModel, ChannelModel, LimitModel, MethodModel, PayloadModel, TypeModel } from '../../model/types';
import type { Examples } from './examples';
import { code, joined, link, prettyJson, rich, tag, type Block, type Inline, type Page, type Row } from './ir';
import { PAGES, type SiteMap } from './site';

const KIND_LABEL: Record<TypeModel['kind'], string> = {
  record: 'record',
  enum: 'enumeration',
  scalar: 'scalar',
  union: 'one of',
  array: 'array',
  open: 'open',
};

const TRANSPORT_LABEL = { ws: 'WebSocket', http: 'HTTP' } as const;

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** A table without the columns (from `keep` on) that are empty in every row: most records have no defaults. */
function withoutEmptyColumns(head: string[], rows: Row[], keep: number): Block {
  const used = head.map((_, i) => i < keep || rows.some((r) => (r.cells[i] ?? []).length > 0));
  return { kind: 'table', mono: 2, head: head.filter((_, i) => used[i]), rows: rows.map((r) => ({ ...r, cells: r.cells.filter((_, i) => used[i]) })) };
}

export class PageBuilder {
  private readonly usedBy = new Map<string, Inline[][]>();

  constructor(
    private readonly model: ApiModel,
    private readonly site: SiteMap,
    private readonly examples: Examples,
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
        add(r, fields.length <= 3 ? joined(fields.map((f) => [link(site.fieldRef(t.name, f), code(`${t.name}.${f}`))])) : [...this.typeLink(t.name), ` (${fields.length} fields)`]);
      }
    }
    for (const c of model.channels) add(c.payload.record, [link(site.channel(c), code(c.address))]);
    for (const m of model.methods) {
      for (const r of new Set([m.params.record, m.result.record, m.assumedParams, m.assumedResult])) add(r, [link(site.method(m), code(m.name))]);
    }
  }

  /** Every page of the site. */
  pages(): Page[] {
    return [
      this.index(),
      this.channels(),
      this.methods(),
      this.records(),
      this.enums(),
      this.errors(),
      this.limits(),
      this.login(),
      this.open(),
    ];
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

  private payload(p: PayloadModel): Inline[] {
    if (p.record) return p.array ? ['array of ', ...this.typeLink(p.record)] : this.typeLink(p.record);
    return [p.array ? 'an array (schema below)' : 'a value (schema below)'];
  }

  /** The not-shown and assumption notes of one place of the spec. */
  private markers(pointer: string, assumption: string | undefined): Block[] {
    const blocks: Block[] = this.site.notShownUnder(pointer).map((n) => ({
      kind: 'note' as const,
      tone: 'not-shown' as const,
      text: [{ strong: ['Not shown.'] }, ' ', ...rich(n.text), ' ', link(this.site.notShownRef(n), 'What the document leaves open')],
    }));
    if (assumption) {
      const a = this.model.assumptions.find((x) => x.id === assumption);
      blocks.push({
        kind: 'note',
        tone: 'assumption',
        text: [{ strong: ['Assumption.'] }, ' ', ...(a ? rich(a.title + '.') : []), ' ', link(this.site.assumptionRef(assumption), 'Assumption ', code(assumption))],
      });
    }
    return blocks;
  }

  private markerTags(pointer: string, assumption: string | undefined): Inline[] {
    const tags: Inline[] = [];
    const ns = this.site.notShownUnder(pointer)[0];
    if (ns) tags.push(link(this.site.notShownRef(ns), tag('not shown', 'not-shown')));
    if (assumption) tags.push(link(this.site.assumptionRef(assumption), tag('assumption', 'assumption')));
    return tags;
  }

  private schemaBlock(schema: unknown, caption: Inline[]): Block {
    return { kind: 'code', text: prettyJson(schema), caption };
  }

  // ---------- overview ----------

  private index(): Page {
    const m = this.model;
    const s = this.site;
    const transports = [...new Set(m.servers.map((x) => x.transport))].map((t) => TRANSPORT_LABEL[t]);
    const paths = [...new Set(m.servers.map((x) => x.pathname).filter(Boolean))];
    const records = m.types.filter((t) => t.kind !== 'enum').length;
    const enums = m.types.filter((t) => t.kind === 'enum').length;
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: [m.title], tags: [tag(`version ${m.version}`, 'kind')] },
      ...m.description.split(/\n\s*\n/).filter((p) => p.trim()).map((p): Block => ({ kind: 'p', text: rich(p) })),
      {
        kind: 'facts',
        rows: [
          ['Version', [code(m.version)]],
          ['Transports', [transports.join(', ') || 'none listed']],
          ['Channels', [link({ page: PAGES.index, anchor: 'channels' }, plural(m.channels.length, 'subscription channel'))]],
          ['Methods', [link({ page: PAGES.index, anchor: 'methods' }, plural(m.methods.length, 'JSON-RPC method'))]],
          ['Left open', [link({ page: PAGES.open }, `${plural(m.notShown.length, 'place')} not shown, ${plural(m.assumptions.length, 'assumption')}`)]],
        ],
      },
      { kind: 'h', level: 2, id: 'servers', text: ['Servers and transports'] },
      {
        kind: 'table',
        head: ['Server', 'URL', 'Transport', 'Description'],
        rows: m.servers.map((x) => ({
          id: s.serverRef(x.id).anchor!,
          cells: [[code(x.id), ' ', x.title], [code(`${x.protocol}://${x.host}${x.pathname}`)], [TRANSPORT_LABEL[x.transport]], rich(x.description)],
        })),
      },
      ...m.servers.flatMap((x) => this.markersInline(`#/servers/${x.id}`, x.id)),
      { kind: 'h', level: 2, id: 'versioning', text: ['Versioning'] },
      {
        kind: 'p',
        text: [
          `This document describes version `,
          code(m.version),
          ' of the spec. ',
          ...(paths.length ? ['Server paths: ', ...joined(paths.map((p) => [code(p)])), '. '] : []),
          'Each page is generated from the spec; the version above names the spec it came from.',
        ],
      },
      ...this.markers('#/info', undefined),
      { kind: 'h', level: 2, id: 'channels', text: ['Channels'] },
      {
        kind: 'table',
        head: ['Address', 'Access', 'Payload', 'Title'],
        rows: m.channels.map((c) => ({ cells: [[link(s.channel(c), code(c.address))], [tag(c.access, c.access)], this.payload(c.payload), [c.title]] })),
      },
      { kind: 'h', level: 2, id: 'methods', text: ['Methods'] },
      {
        kind: 'table',
        head: ['Method', 'Transports', 'Rate-limit class', 'Auth', 'Summary'],
        rows: m.methods.map((x) => ({
          cells: [[link(s.method(x), code(x.name))], [x.transports.map((t) => TRANSPORT_LABEL[t]).join(', ')], [link(s.classRef(x.rateLimitClass), code(x.rateLimitClass))], [x.auth], rich(x.summary)],
        })),
      },
      { kind: 'h', level: 2, id: 'reference', text: ['Reference'] },
      {
        kind: 'list',
        items: [
          { text: [link({ page: PAGES.records }, 'Records and types'), ` (${records})`] },
          { text: [link({ page: PAGES.enums }, 'Enumerations'), ` (${enums})`] },
          { text: [link({ page: PAGES.errors }, 'Errors'), ` (${plural(m.errors.codes.length, 'code')})`] },
          { text: [link({ page: PAGES.limits }, 'Limits and rate-limit classes'), ` (${plural(m.limits.length, 'limit')}, ${plural(m.rateLimitClasses.length, 'class', 'classes')})`] },
          { text: [link({ page: PAGES.login }, 'Login and its headers')] },
          { text: [link({ page: PAGES.open }, 'Not shown and assumptions'), ` (${plural(m.notShown.length, 'place')}, ${plural(m.assumptions.length, 'assumption')})`] },
        ],
      },
      { kind: 'h', level: 2, id: 'reading', text: ['How to read this reference'] },
      {
        kind: 'list',
        items: [
          { text: ['Every example comes from the spec and was validated against its schemas when this site was generated.'] },
          { text: [tag('not shown', 'not-shown'), ' marks a place the interface document leaves open; ', tag('assumption', 'assumption'), ' marks a choice the spec makes where the document makes none. Both link to ', link({ page: PAGES.open }, 'one page'), '.'] },
          { text: ['Every channel, method, record, field and enumeration value has a stable anchor: copy a link from its heading or row.'] },
        ],
      },
    ];
    return { path: PAGES.index, title: 'Overview', nav: 'index', blocks };
  }

  /** Assumptions cited on a server, as notes (the index shows them under the servers table). */
  private markersInline(pointer: string, serverId: string): Block[] {
    const cites = this.model.assumptions.filter((a) => a.citedAt.includes(pointer));
    return cites.map((a) => ({
      kind: 'note' as const,
      tone: 'assumption' as const,
      text: [{ strong: ['Assumption.'] }, ` Server ${serverId}: `, ...rich(a.title + '.'), ' ', link(this.site.assumptionRef(a.id), 'Assumption ', code(a.id))],
    }));
  }

  // ---------- channels ----------

  private channels(): Page {
    const m = this.model;
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Channels'] },
      {
        kind: 'p',
        text: [
          `${plural(m.channels.length, 'subscription channel')}. An address is a template: fill in its parameters to subscribe. `,
          'Public channels need no login; private ones need ',
          link({ page: PAGES.login }, 'login'),
          ' and serve only the caller\'s own subaccounts and wallet.',
        ],
      },
      { kind: 'list', chips: true, items: m.channels.map((c) => ({ text: [link(this.site.channel(c), code(c.address))] })) },
      ...m.channels.flatMap((c) => this.channel(c)),
    ];
    return { path: PAGES.channels, title: 'Channels', nav: 'channels', blocks };
  }

  private methods(): Page {
    const m = this.model;
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Methods'] },
      { kind: 'p', text: [`${plural(m.methods.length, 'JSON-RPC 2.0 method')}. Over WebSocket a request is a frame on the socket; over HTTP it is a POST of the params to the method's path.`] },
      { kind: 'list', chips: true, items: m.methods.map((x) => ({ text: [link(this.site.method(x), code(x.name))] })) },
      ...m.methods.flatMap((x) => this.method(x)),
    ];
    return { path: PAGES.methods, title: 'Methods', nav: 'methods', blocks };
  }

  private channel(c: ChannelModel): Block[] {
    const s = this.site;
    const ex = this.examples.channels.get(c.id) ?? null;
    const subscribe = this.model.methods.find((m) => m.id === this.model.roles.subscribe);
    // The frame follows whatever assumption governs the notification frame schema, if any.
    const frameType = this.model.roles.notificationFrame ? s.type(this.model.roles.notificationFrame) : undefined;
    const notify = frameType?.assumption ? this.model.assumptions.find((a) => a.id === frameType.assumption) : undefined;
    const blocks: Block[] = [
      { kind: 'h', level: 2, id: s.channel(c).anchor!, text: [code(c.address)], tags: [tag(c.access, c.access), ...this.markerTags(`#/channels/${c.id}`, c.assumption)] },
      { kind: 'p', text: [{ strong: [c.title] }, ...(c.description ? ['. ', ...rich(c.description)] : [])] },
      {
        kind: 'facts',
        rows: [
          ['Address', [code(c.address)]],
          ['Access', c.access === 'private' ? [tag('private', 'private'), ' needs ', link({ page: PAGES.login }, 'login'), '; only the caller\'s own subaccounts and wallet'] : [tag('public', 'public'), ' no login needed']],
          ['Payload', this.payload(c.payload)],
          ['Channel id', [code(c.id)]],
        ],
      },
      ...this.markers(`#/channels/${c.id}`, c.assumption),
      { kind: 'h', level: 3, id: s.channel(c, 'parameters').anchor!, text: ['Parameters'] },
      c.parameters.length === 0
        ? { kind: 'p', text: ['None: the address is fixed.'] }
        : {
            kind: 'table',
            head: ['Parameter', 'Allowed values', 'Description'],
            rows: c.parameters.map((p) => ({ cells: [[code(`{${p.name}}`)], p.enum ? joined(p.enum.map((v) => [code(v)]), ' ') : ['any value'], rich(p.description)] })),
          },
      { kind: 'h', level: 3, id: s.channel(c, 'payload').anchor!, text: ['Payload'] },
      {
        kind: 'p',
        text: c.payload.array
          ? ['Each notification\'s ', code('data'), ' is ', ...this.payload(c.payload), '.']
          : ['Each notification\'s ', code('data'), ' is one ', ...this.payload(c.payload), c.payload.record ? ' object.' : '.'],
      },
      ...(c.payload.record ? [] : [this.schemaBlock(c.payload.schema, ['Payload schema'])]),
      { kind: 'h', level: 3, id: s.channel(c, 'example').anchor!, text: ['Example notification'] },
    ];
    if (ex) {
      const caption: Inline[] = ex.borrowedFrom
        ? ['The spec has no example for this channel; this is the example of ', link(s.channel(ex.borrowedFrom), code(ex.borrowedFrom.address)), ', which carries the same payload.']
        : ['From the spec\'s example.'];
      if (notify) caption.push(' Frame per ', link(s.assumptionRef(notify.id), 'assumption ', code(notify.id)), '.');
      blocks.push({ kind: 'code', text: prettyJson(ex.frame), caption });
      if (subscribe) blocks.push({ kind: 'p', text: ['Subscribe with ', link(s.method(subscribe), code(subscribe.name)), ' giving the address with its parameters filled in, e.g. ', code(ex.address), '.'] });
    } else {
      blocks.push({ kind: 'p', text: ['No example in the spec.'] });
      if (subscribe) blocks.push({ kind: 'p', text: ['Subscribe with ', link(s.method(subscribe), code(subscribe.name)), ' giving the address with its parameters filled in.'] });
    }
    return blocks;
  }

  // ---------- methods ----------

  private method(m: MethodModel): Block[] {
    const s = this.site;
    const ex = this.examples.methods.get(m.id) ?? { request: null, reply: null };
    const http = m.transports.includes('http') ? this.model.servers.find((x) => x.transport === 'http') : undefined;
    const rate: Inline[] = [link(s.classRef(m.rateLimitClass), code(m.rateLimitClass))];
    const budget = m.rateLimitBudget ? s.limitRef(m.rateLimitBudget) : null;
    if (budget) rate.push(', budget ', link(budget, code(m.rateLimitBudget!)));
    if (m.rateLimitRule) {
      rate.push(
        ', rule: ',
        ...joined(Object.entries(m.rateLimitRule).map(([k, v]) => {
          const ref = s.limitRef(v);
          return [`${k} `, ref ? link(ref, code(v)) : code(v)];
        })),
      );
    }
    const facts: Array<[string, Inline[]]> = [
      ['Transports', joined(m.transports.map((t) => [t === 'http' && m.httpPath ? `HTTP POST ` : TRANSPORT_LABEL[t], ...(t === 'http' && m.httpPath ? [code(m.httpPath)] : [])]))],
      ['Auth', m.auth === 'login' ? [link({ page: PAGES.login }, 'login'), ' required'] : ['none']],
      ['Rate-limit class', rate],
    ];
    if (m.orderFlow) facts.push(['Order flow', ['state-changing; carries its own ', link({ page: PAGES.login, anchor: 'action-signature' }, 'action signature')]]);
    facts.push(['Operation id', [code(m.id)]]);

    const side = (which: 'params' | 'result', p: PayloadModel, assumed: string | null): Block[] => {
      const out: Block[] = [{ kind: 'p', text: [which === 'params' ? 'Params: ' : 'Result: ', ...this.payload(p), '.'] }];
      if (assumed) {
        out.push({
          kind: 'note',
          tone: 'assumption',
          text: ['The document leaves the ', which, ' open; the sandbox and the client use ', ...this.typeLink(assumed), '.'],
        });
      } else if (!p.record) out.push(this.schemaBlock(p.schema, [which === 'params' ? 'Params schema' : 'Result schema']));
      return out;
    };

    const blocks: Block[] = [
      { kind: 'h', level: 2, id: s.method(m).anchor!, text: [code(m.name)], tags: [...m.transports.map((t) => tag(TRANSPORT_LABEL[t], 'kind')), ...this.markerTags(`#/operations/${m.id}`, m.assumption)] },
      ...(m.summary ? [{ kind: 'p', text: rich(m.summary) } as Block] : []),
      ...(m.description ? [{ kind: 'p', text: rich(m.description) } as Block] : []),
      { kind: 'facts', rows: facts },
      ...this.markers(`#/operations/${m.id}`, m.assumption),
      { kind: 'h', level: 3, id: s.method(m, 'params').anchor!, text: ['Params'] },
      ...side('params', m.params, m.assumedParams),
      { kind: 'h', level: 3, id: s.method(m, 'result').anchor!, text: ['Result'] },
      ...side('result', m.result, m.assumedResult),
      { kind: 'h', level: 3, id: s.method(m, 'example').anchor!, text: ['Example'] },
    ];
    if (!ex.request && !ex.reply) blocks.push({ kind: 'p', text: ['No example in the spec.'] });
    if (ex.request) {
      blocks.push({ kind: 'code', text: prettyJson(ex.request), caption: ['Request, from the spec\'s example.'] });
      if (http && m.httpPath) {
        const lines = [`POST ${http.protocol}://${http.host}${m.httpPath}`, 'Content-Type: application/json'];
        if (m.auth === 'login' && this.model.login) {
          const h = this.model.login.headers;
          lines.push(`${h.wallet}: <wallet>`, `${h.timestamp}: <milliseconds>`, `${h.signature}: <signature of the timestamp>`);
        }
        blocks.push({ kind: 'code', text: [...lines, '', prettyJson((ex.request as { params: unknown }).params)].join('\n'), caption: ['The same request over HTTP.'] });
      }
    }
    if (ex.reply) blocks.push({ kind: 'code', text: prettyJson(ex.reply), caption: ['Reply, from the spec\'s example.'] });
    return blocks;
  }

  // ---------- records and enumerations ----------

  private typeSection(t: TypeModel): Block[] {
    const s = this.site;
    const pointer = `#/components/schemas/${t.name}`;
    // Records and enumerations sit under their own headings; only the other kinds need saying.
    const kind = t.kind === 'record' || t.kind === 'enum' ? [] : [tag(KIND_LABEL[t.kind], 'kind')];
    const tags: Inline[] = [...kind, ...(t.kind === 'record' && t.open === false ? [tag('closed', 'kind')] : []), ...this.markerTags(pointer, t.assumption)];
    const blocks: Block[] = [{ kind: 'h', level: t.kind === 'enum' ? 2 : 3, id: s.typeRef(t.name)!.anchor!, text: [t.name], tags }];
    if (t.description) blocks.push({ kind: 'p', text: rich(t.description) });
    blocks.push(...this.markers(pointer, t.assumption));
    if (t.kind === 'record' && t.fields) {
      const rows = t.fields.map((f): Row => {
        const ns = s.notShownUnder(`${pointer}/properties/${f.name}`)[0];
        const desc: Inline[] = [...rich(f.description)];
        if (ns) desc.push(desc.length ? ' ' : '', link(s.notShownRef(ns), tag('not shown', 'not-shown')), ' ', ...rich(ns.text));
        const type = f.nullable && !/\bnull\b/.test(f.type) ? `${f.type} | null` : f.type;
        return {
          id: s.fieldRef(t.name, f.name).anchor!,
          cells: [[code(f.name)], this.typeExpr(type, f.refs), [f.required ? 'yes' : 'no'], f.default === undefined ? [] : [code(JSON.stringify(f.default))], desc],
        };
      });
      blocks.push(withoutEmptyColumns(['Field', 'Type', 'Required', 'Default', 'Description'], rows, 3));
    } else if (t.kind === 'enum' && t.values) {
      const type = (this.model.schemas[t.name] ?? {}).type;
      blocks.push({ kind: 'p', text: [plural(t.values.length, 'value'), typeof type === 'string' ? [' (', code(type), '):'] : ':'].flat() });
      blocks.push({ kind: 'list', chips: true, items: t.values.map((v) => ({ id: s.valueRef(t.name, v).anchor!, text: [code(v === '' ? '""' : String(v))] })) });
    } else {
      const { title: _t, description: _d, examples: _e, ...schema } = this.model.schemas[t.name] ?? {};
      blocks.push(this.schemaBlock(schema, ['Schema']));
    }
    // A record's field types already link what it refers to; other kinds show a schema, so list them.
    const refs = t.kind === 'record' ? [] : [...new Set(t.refs)].filter((r) => r !== t.name && s.type(r));
    if (refs.length) blocks.push({ kind: 'p', text: ['Refers to: ', ...joined(refs.map((r) => this.typeLink(r)))] });
    const used = this.usedBy.get(t.name);
    if (used?.length) blocks.push({ kind: 'p', text: ['Used by: ', ...joined(used)] });
    for (const [i, e] of (this.examples.schemas.get(t.name) ?? []).entries()) {
      if (i === 0 && t.kind === 'scalar') {
        blocks.push({ kind: 'p', text: ['Examples: ', ...joined((this.examples.schemas.get(t.name) ?? []).map((x) => [code(JSON.stringify(x))]))] });
        break;
      }
      blocks.push({ kind: 'code', text: prettyJson(e), caption: [`Example ${i + 1}, from the spec.`] });
    }
    return blocks;
  }

  private records(): Page {
    const types = this.model.types.filter((t) => t.kind !== 'enum');
    const records = types.filter((t) => t.kind === 'record');
    const others = types.filter((t) => t.kind !== 'record');
    const chips = (list: TypeModel[]): Block => ({ kind: 'list', chips: true, items: list.map((t) => ({ text: this.typeLink(t.name) })) });
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
      ...records.flatMap((t) => this.typeSection(t)),
      { kind: 'h', level: 2, id: 'other-types', text: ['Other types'] },
      ...others.flatMap((t) => this.typeSection(t)),
    ];
    return { path: PAGES.records, title: 'Records and types', nav: 'records', blocks };
  }

  private enums(): Page {
    const enums = this.model.types.filter((t) => t.kind === 'enum');
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Enumerations'] },
      { kind: 'p', text: [`${plural(enums.length, 'enumeration')}. Every value has its own anchor. Enumerations whose values the document does not show are open strings (see `, link({ page: PAGES.records, anchor: 'other-types' }, 'other types'), ').'] },
      { kind: 'list', chips: true, items: enums.map((t) => ({ text: this.typeLink(t.name) })) },
      ...enums.flatMap((t) => this.typeSection(t)),
    ];
    return { path: PAGES.enums, title: 'Enumerations', nav: 'enums', blocks };
  }

  // ---------- errors, limits, login ----------

  private errors(): Page {
    const { reserved, codes } = this.model.errors;
    const errorObject = this.model.roles.errorObject;
    const rpcError = errorObject ? this.site.type(errorObject) : undefined;
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Errors'] },
      { kind: 'p', text: ['A failed request is answered with a JSON-RPC error object', ...(rpcError ? [' (', ...this.typeLink(rpcError.name), ')'] : []), ' carrying ', code('code'), ', ', code('message'), ' and, for some codes, ', code('data'), '.'] },
      ...this.markers('#/x-errors', undefined),
      { kind: 'h', level: 2, id: 'reserved', text: ['Reserved ranges'] },
      reserved.length === 0
        ? { kind: 'p', text: ['None.'] }
        : { kind: 'table', head: ['From', 'To', 'Purpose'], rows: reserved.map((r) => ({ cells: [[code(String(r.from))], [code(String(r.to))], rich(r.purpose)] })) },
      { kind: 'h', level: 2, id: 'codes', text: ['Codes'] },
      {
        kind: 'table',
        head: ['Code', 'Message', 'When', 'Data'],
        rows: codes.map((e) => ({
          id: this.site.errorRef(e.code).anchor!,
          cells: [
            [code(String(e.code))],
            [e.message, ...(e.assumption ? [' ', link(this.site.assumptionRef(e.assumption), tag('assumption', 'assumption'))] : [])],
            rich(e.condition),
            [...(e.data ? [code(e.data)] : []), ...(e.dataPattern ? [' pattern ', code(e.dataPattern)] : []), ...(e.textFramePrefix ? ['text frame starts ', code(e.textFramePrefix)] : [])],
          ],
        })),
      },
    ];
    return { path: PAGES.errors, title: 'Errors', nav: 'errors', blocks };
  }

  private limitValues(l: LimitModel): string {
    switch (l.kind) {
      case 'window':
        return `${l.tps ?? '?'} per second; ${l.points ?? '?'} points per ${(l.windowMs ?? 0) / 1000} s`;
      case 'connections':
        return `at most ${l.max ?? '?'}`;
      case 'bucket':
        return `refills ${l.refillPerSecond ?? '?'} per second, capacity ${l.capacity ?? '?'}${l.instrumentTypes ? `; ${l.instrumentTypes.join(', ')}` : ''}`;
      case 'size':
        return `${l.maxBytes ?? '?'} bytes`;
    }
  }

  private limits(): Page {
    const s = this.site;
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Limits'] },
      { kind: 'p', text: ['Reference values from the spec. A deployment may configure its own; where it reports them, the live values are authoritative.'] },
      { kind: 'h', level: 2, id: 'classes', text: ['Rate-limit classes'] },
      {
        kind: 'table',
        head: ['Class', 'Applies to', 'Budget', 'Methods in this spec'],
        rows: this.model.rateLimitClasses.map((c) => {
          const budget = s.limitRef(c.budget);
          const methods = this.model.methods.filter((x) => x.rateLimitClass === c.name);
          return {
            id: s.classRef(c.name).anchor!,
            cells: [
              [code(c.name), ...(c.default ? [' ', tag('default', 'kind')] : [])],
              [...rich(c.appliesTo), ...(c.methodCount !== null ? [` (${c.methodCount} methods of the service)`] : [])],
              [budget ? link(budget, code(c.budget)) : code(c.budget)],
              methods.length ? joined(methods.map((x) => [link(s.method(x), code(x.name))])) : ['none'],
            ],
          };
        }),
      },
      { kind: 'h', level: 2, id: 'limits', text: ['Limits'] },
      {
        kind: 'table',
        head: ['Limit', 'Kind', 'Scope', 'Value', 'Notes'],
        rows: this.model.limits.map((l, i) => ({
          id: s.limitRef(l.id)!.anchor!,
          cells: [[code(l.id), ' ', l.title], [l.kind], [l.scope], [this.limitValues(l)], this.markerTags(`#/x-limits/${i}`, l.assumption)],
        })),
      },
      ...this.model.limits.flatMap((l, i) => this.markers(`#/x-limits/${i}`, undefined).map((b) => (b.kind === 'note' ? { ...b, text: [code(l.id), ': ', ...b.text] } : b))),
    ];
    return { path: PAGES.limits, title: 'Limits', nav: 'limits', blocks };
  }

  private login(): Page {
    const login = this.model.login;
    const sig = this.model.actionSignature;
    const loginMethods = this.model.methods.filter((m) => /(^|\/)login$/.test(m.name));
    const blocks: Block[] = [{ kind: 'h', level: 1, text: ['Login'] }];
    if (loginMethods.length) blocks.push({ kind: 'p', text: ['Log in over WebSocket with ', ...joined(loginMethods.map((m) => [link(this.site.method(m), code(m.name))])), '; over HTTP, private requests carry the headers below on every request.'] });
    if (!login) blocks.push({ kind: 'p', text: ['This spec describes no login.'] });
    else {
      blocks.push(
        { kind: 'h', level: 2, id: 'headers', text: ['Headers'] },
        {
          kind: 'table',
          head: ['Header', 'Carries'],
          rows: [
            { cells: [[code(login.headers.wallet)], ['the wallet address']] },
            { cells: [[code(login.headers.timestamp)], ['the signed timestamp']] },
            { cells: [[code(login.headers.signature)], ['the signature']] },
          ],
        },
        { kind: 'p', text: [{ strong: ['Signed message. '] }, ...rich(login.message)] },
        { kind: 'h', level: 2, id: 'freshness', text: ['Freshness and re-verification'] },
        {
          kind: 'facts',
          rows: [
            ['Freshness window', login.freshness ? [`from ${login.freshness.pastMs / 1000} s before to ${login.freshness.futureMs / 1000} s after the server's clock; applies to ${login.freshness.appliesTo} logins`, ...(login.freshness.assumption ? [' ', link(this.site.assumptionRef(login.freshness.assumption), tag('assumption', 'assumption'))] : [])] : ['not given']],
            ['Re-verification', login.reverifyIntervalMs !== null ? [`every ${login.reverifyIntervalMs / 1000} s`, ...this.citing('#/x-login/reverify')] : ['not given']],
          ],
        },
        ...this.markers('#/x-login', undefined),
      );
    }
    if (sig) {
      blocks.push(
        { kind: 'h', level: 2, id: 'action-signature', text: ['Action signature'], tags: this.markerTags('#/x-action-signature', sig.assumption) },
        { kind: 'p', text: ['State-changing requests carry an EIP-712 signature of the action, in the fields ', ...joined(sig.signatureFields.map((f) => [code(f)])), '.'] },
        ...this.markers('#/x-action-signature', sig.assumption),
        { kind: 'code', text: prettyJson({ domain: sig.domain, primaryType: sig.primaryType, types: sig.types }), caption: ['Domain and types.'] },
        { kind: 'p', text: [{ strong: ['Params hash. '] }, ...rich(sig.paramsHash)] },
      );
    }
    return { path: PAGES.login, title: 'Login', nav: 'login', blocks };
  }

  /** Links to the assumptions that cite exactly this pointer. */
  private citing(pointer: string): Inline[] {
    return this.model.assumptions.filter((a) => a.citedAt.includes(pointer)).flatMap((a) => [' ', link(this.site.assumptionRef(a.id), tag('assumption', 'assumption'))]);
  }

  // ---------- what the document leaves open ----------

  private open(): Page {
    const s = this.site;
    const m = this.model;
    const place = (pointer: string, label: string): Inline[] => {
      const ref = s.pointerRef(pointer);
      return ref ? [link(ref, label)] : [label];
    };
    const blocks: Block[] = [
      { kind: 'h', level: 1, text: ['Not shown and assumptions'] },
      {
        kind: 'p',
        text: [
          `Everything this reference leaves open, in one place: ${plural(m.notShown.length, 'place')} where the interface document does not show something (the spec keeps them open), and ${plural(m.assumptions.length, 'assumption')}, the choices the spec makes where a working system needs one and the document makes none.`,
        ],
      },
      { kind: 'h', level: 2, id: 'not-shown', text: ['Not shown'] },
      {
        kind: 'table',
        head: ['Where', 'What is left open', 'Spec pointer'],
        rows: m.notShown.map((n) => ({ id: s.notShownRef(n).anchor!, cells: [place(n.pointer, n.where), rich(n.text), [code(n.pointer)]] })),
      },
      { kind: 'h', level: 2, id: 'assumptions', text: ['Assumptions'] },
    ];
    for (const a of m.assumptions) {
      const choice = a.choice.trim();
      blocks.push(
        { kind: 'h', level: 3, id: s.assumptionRef(a.id).anchor!, text: [a.title], tags: [tag(a.id, 'assumption')] },
        /^[[{]/.test(choice) ? { kind: 'code', text: choice, caption: ['Choice'] } : { kind: 'p', text: [{ strong: ['Choice. '] }, ...rich(choice)] },
        { kind: 'p', text: [{ strong: ['Reason. '] }, ...rich(a.reason)] },
      );
      if (a.citedAt.length) blocks.push({ kind: 'p', text: ['Cited at: ', ...joined(a.citedAt.map((p) => place(p, p.replace(/^#\//, ''))))] });
    }
    return { path: PAGES.open, title: 'Not shown and assumptions', nav: 'open', blocks };
  }
}
