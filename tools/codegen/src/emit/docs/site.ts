/**
 * Where everything lives in the site: page paths and anchors, computed once from the model so every
 * link, the navigation and the search index agree. Anchors depend only on names in the spec, so deep
 * links stay stable from one generation to the next.
 */
import type { ApiModel, ChannelModel, MethodModel, NotShownModel, TypeModel } from '../../model/types';
import type { Ref } from './ir';
import { layoutOf, type Layout } from './groups';

/** An id safe in URLs and HTML: names keep their letters, digits, `_ . : -`. */
export function safeId(raw: string): string {
  return raw === '' ? '_empty' : raw.replace(/[^A-Za-z0-9_.:-]/g, '_');
}

/** Claims unique ids in one namespace: a second name that sanitises to a taken id gets a suffix. */
class IdSpace {
  private readonly taken = new Set<string>();
  claim(raw: string): string {
    const base = safeId(raw);
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}

/**
 * The pages of the site. Channels and methods are sections of one page each, or of one page per group
 * (groups.ts) where the spec tags its operations; records likewise.
 */
export const PAGES = {
  index: 'index',
  channels: 'channels',
  methods: 'methods',
  records: 'records',
  enums: 'enums',
  errors: 'errors',
  limits: 'limits',
  login: 'login',
  open: 'open',
} as const;

/**
 * Whether the site has `page`: the errors, limits, login and open pages only for a spec that gives
 * their content (`x-errors`; `x-limits` or `x-rate-limit-classes`; `x-login` or `x-action-signature`;
 * a place not shown or an assumption), never an empty page for an API that has none.
 */
export function hasPage(model: ApiModel, page: string): boolean {
  switch (page) {
    case PAGES.errors:
      return model.errors.codes.length > 0 || model.errors.reserved.length > 0;
    case PAGES.limits:
      return model.limits.length > 0 || model.rateLimitClasses.length > 0;
    case PAGES.login:
      return model.login !== null || model.actionSignature !== null;
    case PAGES.open:
      return model.notShown.length > 0 || model.assumptions.length > 0;
    default:
      return true;
  }
}

/** The parts of a channel's and of a method's section that have their own anchors. */
export const CHANNEL_PARTS = ['parameters', 'payload', 'example'] as const;
export const METHOD_PARTS = ['params', 'result', 'example'] as const;

export class SiteMap {
  private readonly channelIds = new Map<string, string>();
  private readonly methodIds = new Map<string, string>();
  private readonly typeByName = new Map<string, TypeModel>();
  private readonly anchorOf = new Map<string, string>();
  private readonly notShownIds = new Map<NotShownModel, string>();
  /** The split by group: empty lists where the spec has one group or none. */
  readonly layout: Layout;
  private readonly channelPage = new Map<string, string>();
  private readonly methodPage = new Map<string, string>();

  constructor(readonly model: ApiModel) {
    this.layout = layoutOf(model);
    for (const g of this.layout.channels) for (const c of g.items) this.channelPage.set(c.id, g.page);
    for (const g of this.layout.methods) for (const m of g.items) this.methodPage.set(m.id, g.page);
    this.claimApi();
    this.claimTypes();
    this.claimOpen();
    this.claimTables();
  }

  /** Channel and method sections, their parts and every example. */
  private claimApi(): void {
    const { model } = this;
    const channels = new IdSpace();
    channels.claim('contents');
    for (const c of model.channels) this.channelIds.set(c.id, channels.claim(c.id));
    for (const c of model.channels)
      for (const sub of CHANNEL_PARTS)
        this.anchorOf.set(`channel:${c.id}:${sub}`, channels.claim(`${this.channelIds.get(c.id)}-${sub}`));
    // Every example of a channel's message its own anchor, after the parts: `orderbook-example-2`.
    for (const c of model.channels)
      c.examples.forEach((_, i) =>
        this.anchorOf.set(
          `example:channel:${c.id}:payload:${i}`,
          channels.claim(`${this.channelIds.get(c.id)}-example-${i + 1}`),
        ),
      );
    const methods = new IdSpace();
    methods.claim('contents');
    for (const m of model.methods) this.methodIds.set(m.id, methods.claim(m.name.replace(/\//g, '-')));
    for (const m of model.methods)
      for (const sub of METHOD_PARTS)
        this.anchorOf.set(`method:${m.id}:${sub}`, methods.claim(`${this.methodIds.get(m.id)}-${sub}`));
    // A method's params and result examples, each its own anchor: `order-params-1`, `order-result-2`.
    for (const m of model.methods)
      for (const [side, list] of [
        ['params', m.paramsExamples],
        ['result', m.resultExamples],
      ] as const)
        list.forEach((_, i) =>
          this.anchorOf.set(
            `example:method:${m.id}:${side}:${i}`,
            methods.claim(`${this.methodIds.get(m.id)}-${side}-${i + 1}`),
          ),
        );
  }

  /** Records, fields, enumerations and their values. */
  private claimTypes(): void {
    // Headings of the pages claim their ids first, so a schema named like one gets a suffix instead.
    const records = new IdSpace();
    for (const id of ['contents', 'records', 'other-types']) records.claim(id);
    const enums = new IdSpace();
    enums.claim('contents');
    for (const t of this.model.types) {
      this.typeByName.set(t.name, t);
      const space = t.kind === 'enum' ? enums : records;
      this.anchorOf.set(`type:${t.name}`, space.claim(t.name));
      for (const f of t.fields ?? [])
        this.anchorOf.set(`field:${t.name}:${f.name}`, space.claim(`${t.name}.${f.name}`));
      for (const v of t.values ?? [])
        this.anchorOf.set(
          `value:${t.name}:${String(v)}`,
          space.claim(`${t.name}.${String(v) === '' ? '_empty' : this.valueText(t.name, v)}`),
        );
    }
  }

  /** What the document leaves open, and the assumptions. */
  private claimOpen(): void {
    const { model } = this;
    const open = new IdSpace();
    for (const id of ['not-shown', 'assumptions']) open.claim(id);
    for (const a of model.assumptions) this.anchorOf.set(`assumption:${a.id}`, open.claim(`assumption-${a.id}`));
    const perPointer = new Map<string, number>();
    for (const n of model.notShown) perPointer.set(n.pointer, (perPointer.get(n.pointer) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const n of model.notShown) {
      const k = (seen.get(n.pointer) ?? 0) + 1;
      seen.set(n.pointer, k);
      const place = n.pointer
        .replace(/^#\/?/, '')
        .replace(/\/x-not-shown$/, '')
        .replace(/^components\/schemas\//, '')
        .replace(/^operations\//, 'op/')
        .replace(/\/properties\//g, '/')
        .replace(/\//g, '.');
      const base = 'ns-' + place;
      this.notShownIds.set(n, open.claim((perPointer.get(n.pointer) ?? 0) > 1 ? `${base}-${k}` : base));
    }
  }

  /** Errors, rate-limit classes, limits and servers. */
  private claimTables(): void {
    const { model } = this;
    const errors = new IdSpace();
    for (const id of ['reserved', 'codes']) errors.claim(id);
    for (const e of model.errors.codes) this.anchorOf.set(`error:${e.code}`, errors.claim(`error-${e.code}`));
    const limits = new IdSpace();
    limits.claim('classes');
    limits.claim('limits');
    for (const c of model.rateLimitClasses) this.anchorOf.set(`class:${c.name}`, limits.claim(`class-${c.name}`));
    for (const l of model.limits) this.anchorOf.set(`limit:${l.id}`, limits.claim(`limit-${l.id}`));
    const index = new IdSpace();
    for (const id of ['servers', 'versioning', 'channels', 'methods', 'reference', 'reading']) index.claim(id);
    for (const s of model.servers) this.anchorOf.set(`server:${s.id}`, index.claim(`server-${s.id}`));
  }

  /** A channel's section, or one of its parts. */
  channel(c: ChannelModel, part?: (typeof CHANNEL_PARTS)[number]): Ref {
    return {
      page: this.channelPage.get(c.id) ?? PAGES.channels,
      anchor: part ? this.anchorOf.get(`channel:${c.id}:${part}`)! : this.channelIds.get(c.id)!,
    };
  }

  /** A method's section, or one of its parts. */
  method(m: MethodModel, part?: (typeof METHOD_PARTS)[number]): Ref {
    return {
      page: this.methodPage.get(m.id) ?? PAGES.methods,
      anchor: part ? this.anchorOf.get(`method:${m.id}:${part}`)! : this.methodIds.get(m.id)!,
    };
  }

  /** One example of a channel's payload or of a method's params or result (`i` from 0, in the spec's order). */
  example(owner: ChannelModel | MethodModel, side: 'payload' | 'params' | 'result', i: number): Ref {
    const method = 'name' in owner;
    const anchor = this.anchorOf.get(`example:${method ? 'method' : 'channel'}:${owner.id}:${side}:${i}`);
    return anchor
      ? { page: (method ? this.method(owner as MethodModel) : this.channel(owner as ChannelModel)).page, anchor }
      : method
        ? this.method(owner as MethodModel, 'example')
        : this.channel(owner as ChannelModel, 'example');
  }

  type(name: string): TypeModel | undefined {
    return this.typeByName.get(name);
  }

  /** The section of a named schema, or null when the model has no such name. */
  typeRef(name: string): Ref | null {
    const t = this.typeByName.get(name);
    if (!t) return null;
    return { page: this.typePage(t), anchor: this.anchorOf.get(`type:${name}`)! };
  }

  /** The page of a named type: enumerations', its group's records page, or the common records page. */
  private typePage(t: TypeModel): string {
    return t.kind === 'enum' ? PAGES.enums : (this.layout.recordPage.get(t.name) ?? PAGES.records);
  }

  fieldRef(type: string, field: string): Ref {
    const t = this.typeByName.get(type);
    return { page: t ? this.typePage(t) : PAGES.records, anchor: this.anchorOf.get(`field:${type}:${field}`)! };
  }

  /** An enumeration value as the spec writes it: `""` for the empty string, an integer beyond 2^53 exact. */
  valueText(type: string, value: string | number): string {
    if (value === '') return '""';
    if (typeof value === 'string') return value;
    const i = this.typeByName.get(type)?.values?.indexOf(value) ?? -1;
    return this.model.exactIntegers?.[`#/components/schemas/${type}/enum/${i}`] ?? String(value);
  }

  valueRef(type: string, value: string | number): Ref {
    return { page: PAGES.enums, anchor: this.anchorOf.get(`value:${type}:${String(value)}`)! };
  }

  assumptionRef(id: string): Ref {
    return { page: PAGES.open, anchor: this.anchorOf.get(`assumption:${id}`) ?? safeId(`assumption-${id}`) };
  }

  notShownRef(n: NotShownModel): Ref {
    return { page: PAGES.open, anchor: this.notShownIds.get(n)! };
  }

  errorRef(code: number): Ref {
    return { page: PAGES.errors, anchor: this.anchorOf.get(`error:${code}`)! };
  }

  classRef(name: string): Ref {
    const anchor = this.anchorOf.get(`class:${name}`);
    return { page: PAGES.limits, anchor: anchor ?? 'classes' };
  }

  limitRef(id: string): Ref | null {
    const anchor = this.anchorOf.get(`limit:${id}`);
    return anchor ? { page: PAGES.limits, anchor } : null;
  }

  serverRef(id: string): Ref {
    return { page: PAGES.index, anchor: this.anchorOf.get(`server:${id}`)! };
  }

  /** The not-shown entries at or below a JSON pointer prefix (e.g. `#/channels/orderbook`). */
  notShownUnder(prefix: string): NotShownModel[] {
    return this.model.notShown.filter((n) => n.pointer === prefix || n.pointer.startsWith(prefix + '/'));
  }

  /** The place in the site that documents a JSON pointer of the spec, or null when none does. */
  pointerRef(pointer: string): Ref | null {
    const parts = pointer
      .replace(/^#\/?/, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const [head, a, b, c, d] = parts;
    const m = this.model;
    switch (head) {
      case 'channels': {
        const ch = m.channels.find((x) => x.id === a);
        return ch ? this.channel(ch) : null;
      }
      case 'operations': {
        const op = m.methods.find((x) => x.id === a);
        return op ? this.method(op) : null;
      }
      case 'components':
        if (a !== 'schemas' || b === undefined) return null;
        if (c === 'properties' && d !== undefined && this.typeByName.get(b)?.fields?.some((f) => f.name === d))
          return this.fieldRef(b, d);
        return this.typeRef(b);
      case 'x-errors': {
        const e = a === 'codes' && b !== undefined ? m.errors.codes[Number(b)] : undefined;
        return e ? this.errorRef(e.code) : { page: PAGES.errors };
      }
      case 'x-limits': {
        const l = a !== undefined ? m.limits[Number(a)] : undefined;
        return (l && this.limitRef(l.id)) || { page: PAGES.limits, anchor: 'limits' };
      }
      case 'x-rate-limit-classes':
        return { page: PAGES.limits, anchor: 'classes' };
      case 'x-login':
        return { page: PAGES.login };
      case 'x-action-signature':
        return { page: PAGES.login, anchor: 'action-signature' };
      case 'servers':
        return a && m.servers.some((s) => s.id === a) ? this.serverRef(a) : { page: PAGES.index };
      case 'info':
        return { page: PAGES.index };
      default:
        return null;
    }
  }
}
