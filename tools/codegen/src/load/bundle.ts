/**
 * A spec split over files, made one document before anything else reads it. Every `$ref` to another
 * file (`./schemas.yaml#/Thing`, `common/y.json`, `../x.yaml#/components/schemas/Z`) is resolved
 * against the directory of the file that holds it; a schema it names is put once into
 * `components.schemas` (under the pointer's last segment, else the file's base name; a clash with a
 * different schema gets a suffix 2, 3 …) and the ref becomes local; anything else it names (a message,
 * a channel, a trait) is copied in place of the ref. Refs inside a referenced file are read relative
 * to that file, recursively. Remote refs (a URL) are never fetched. Where each piece came from is kept
 * (`Mount`), so a problem found later in it can name its own file and line.
 */
import { basename, dirname, extname, resolve } from 'node:path';
import { YamlSource, type Mount } from './yaml-source';
import { SpecError, fromPointer, toPointer, type SpecProblem } from './spec-error';
import { isObj, type Obj } from './spec-types';
import { holdsSchemas } from '@exchange-api/types/json-schema-keywords';

type Path = Array<string | number>;

/** Whether a node under this key is a schema: a ref to another file there is hoisted into components.schemas. */
const underSchemaKey = (key: string): boolean => key === 'payload' || key === 'headers' || holdsSchemas(key);

/** A URL (`http:`, `https:`, `file:`, any scheme) or a network path (`//host/x`): never fetched. */
const REMOTE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/)/;

/** Does any `$ref` of this data name another file? */
export function hasExternalRefs(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRefs);
  if (!isObj(node)) return false;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return true;
  return Object.values(node).some(hasExternalRefs);
}

/** The file a piece of the bundle is read from, as the walk goes. */
interface Context {
  abs: string;
  display: string;
  source: YamlSource;
  /** The line in the main file of the $ref that brought this file's content in (none for the main file). */
  siteLine?: number;
}

/**
 * The main spec with every ref to another file resolved, or the main source itself when it has none
 * (then nothing changes). Throws SpecError naming, for each ref that cannot be followed, the file that
 * holds it, the line and the JSON pointer of the ref.
 */
export function bundleSpec(main: YamlSource, mainAbs: string, displayOf: (abs: string) => string): YamlSource {
  if (!hasExternalRefs(main.data)) return main;
  return new Bundler(main, mainAbs, displayOf).run();
}

/** Where a ref points: its file (absolute) and the path inside it. */
interface Target {
  abs: string;
  path: string[];
}

/** One bundling of a main spec: the files read, the schemas hoisted and where each piece came from. */
class Bundler {
  private readonly problems: SpecProblem[] = [];
  private readonly mounts: Mount[] = [];
  private readonly files = new Map<string, YamlSource | string>();
  private readonly hoisted = new Map<string, string>();
  private readonly hoistedSchemas: Obj = {};
  private readonly mainSchemas: Obj;
  private readonly inlining = new Set<string>();

  constructor(
    private readonly main: YamlSource,
    private readonly mainAbs: string,
    private readonly displayOf: (abs: string) => string,
  ) {
    this.files.set(mainAbs, main);
    const data = main.data;
    this.mainSchemas =
      isObj(data) && isObj(data.components) && isObj(data.components.schemas) ? data.components.schemas : {};
  }

  run(): YamlSource {
    const ctx: Context = { abs: this.mainAbs, display: this.displayOf(this.mainAbs), source: this.main };
    // Named schemas that are only a ref to another file keep their own name: register them first. They
    // are copied in place when the walk reaches them; every other ref to the same target names them.
    for (const [name, schema] of Object.entries(this.mainSchemas)) {
      if (
        !isObj(schema) ||
        Object.keys(schema).length !== 1 ||
        typeof schema.$ref !== 'string' ||
        schema.$ref.startsWith('#')
      )
        continue;
      const target = this.targetOf(schema.$ref, ctx);
      if (typeof target !== 'string' && target.abs !== this.mainAbs) {
        const key = keyOf(target);
        if (!this.hoisted.has(key)) this.hoisted.set(key, name);
      }
    }
    const data = this.visit(this.main.data, ctx, [], []);
    if (isObj(data) && Object.keys(this.hoistedSchemas).length > 0) {
      const comp = (isObj(data.components) ? data.components : (data.components = {})) as Obj;
      comp.schemas = { ...(isObj(comp.schemas) ? comp.schemas : {}), ...this.hoistedSchemas };
    }
    if (this.problems.length > 0) throw new SpecError(this.problems);
    return this.main.bundled(data, this.mounts);
  }

  /** A file read with the bounds of the main spec, or why it cannot be. */
  private fileAt(abs: string): YamlSource | string {
    let found = this.files.get(abs);
    if (found === undefined) {
      const display = this.displayOf(abs);
      try {
        found = YamlSource.read(abs, display);
      } catch (err) {
        const first = err instanceof SpecError ? err.problems[0] : undefined;
        const why = first?.message
          .replace(/^cannot read the spec: /, 'cannot be read: ')
          .replace(/ENOENT: .*/, 'no such file');
        found = first
          ? `${first.line !== undefined ? `${display}:${first.line}` : display}: ${why}`
          : `${display}: cannot be read: ${(err as Error).message}`;
      }
      this.files.set(abs, found);
    }
    return found;
  }

  /** Where a ref points, or why it cannot be followed. */
  private targetOf(ref: string, ctx: Context): Target | string {
    if (REMOTE.test(ref))
      return (
        'is remote: a remote $ref is not fetched; download the file and refer to ' +
        'it by a relative path, or bundle the spec first'
      );
    const hash = ref.indexOf('#');
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '#' : ref.slice(hash);
    let abs: string;
    try {
      abs = filePart === '' ? ctx.abs : resolve(dirname(ctx.abs), decodeURI(filePart));
    } catch {
      return 'is not a valid file reference';
    }
    try {
      return { abs, path: fromPointer(pointer) };
    } catch {
      return `has a pointer that is not valid: ${pointer}`;
    }
  }

  /** The name a hoisted schema takes: the pointer's last segment or the file's name, made unique. */
  private nameFor(key: string, target: Target, value: unknown): string {
    const { path, abs } = target;
    const last = path.length > 0 ? path[path.length - 1]! : basename(abs, extname(abs));
    const base = last.replace(/[^a-zA-Z0-9._-]/g, '_') || 'Schema';
    const shareable = !JSON.stringify(value).includes('"$ref"');
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}${n}`;
      const taken =
        name in this.mainSchemas
          ? this.mainSchemas[name]
          : name in this.hoistedSchemas
            ? this.hoistedSchemas[name]
            : undefined;
      if (taken === undefined) return name;
      // The same content under the same name: one schema serves both.
      if (shareable && JSON.stringify(taken) === JSON.stringify(value)) {
        this.hoisted.set(key, name);
        return name;
      }
    }
  }

  /** A node of the file `ctx` (at `from` there, at `at` in the bundle), with its refs followed. */
  private visit(node: unknown, ctx: Context, from: Path, at: Path): unknown {
    if (Array.isArray(node)) return node.map((v, i) => this.visit(v, ctx, [...from, i], [...at, i]));
    if (!isObj(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && (ctx.source !== this.main || !ref.startsWith('#')))
      return this.followRef(node, ref, ctx, from, at);
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) out[k] = this.visit(v, ctx, [...from, k], [...at, k]);
    return out;
  }

  /** The keys beside a $ref, visited. */
  private siblings(node: Obj, ctx: Context, from: Path, at: Path): Obj {
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) if (k !== '$ref') out[k] = this.visit(v, ctx, [...from, k], [...at, k]);
    return out;
  }

  private followRef(node: Obj, ref: string, ctx: Context, from: Path, at: Path): unknown {
    const refPath = [...from, '$ref'];
    const fail = (why: string): Obj => {
      this.problems.push({
        file: ctx.display,
        pointer: toPointer(refPath),
        line: ctx.source.lineOf(refPath),
        message: `$ref "${ref}" ${why}`,
        severity: 'error',
      });
      return { ...this.siblings(node, ctx, from, at), $ref: ref };
    };
    const target = this.targetOf(ref, ctx);
    if (typeof target === 'string') return fail(target);
    // A ref back into the main file is a local ref there.
    if (target.abs === this.mainAbs) return { ...this.siblings(node, ctx, from, at), $ref: toPointer(target.path) };
    const file = this.fileAt(target.abs);
    if (typeof file === 'string') return fail(`cannot be followed: ${file}`);
    let value: unknown = file.data;
    for (const k of target.path) {
      value = Array.isArray(value) ? value[Number(k)] : isObj(value) ? value[k] : undefined;
      if (value === undefined)
        return fail(
          `does not resolve: ${this.displayOf(target.abs)} has no "${k}" (pointer ${toPointer(target.path)})`,
        );
    }
    const inner: Context = {
      abs: target.abs,
      display: this.displayOf(target.abs),
      source: file,
      siteLine: ctx.siteLine ?? this.main.lineOf(refPath),
    };
    const key = keyOf(target);
    const onlyRef = Object.keys(node).length === 1;
    const namedSchema = at.length === 3 && at[0] === 'components' && at[1] === 'schemas';
    const schemaContext =
      (at[0] === 'components' && at[1] === 'schemas') || at.some((k) => typeof k === 'string' && underSchemaKey(k));
    if (schemaContext && !(namedSchema && onlyRef && this.hoisted.get(key) === at[2])) {
      return {
        ...this.siblings(node, ctx, from, at),
        $ref: `#/components/schemas/${this.hoist(key, target, value, inner)}`,
      };
    }
    // Not a schema (a message, a channel, a trait …), or a named schema that is just this ref: copy it here.
    if (this.inlining.has(key))
      return fail('leads back to itself through content copied in place; only schemas may refer to themselves');
    this.mounts.push({ at, source: file, display: inner.display, from: target.path, siteLine: inner.siteLine });
    this.inlining.add(key);
    const copy = this.visit(value, inner, target.path, at);
    this.inlining.delete(key);
    return isObj(copy) && !onlyRef ? { ...copy, ...this.siblings(node, ctx, from, at) } : copy;
  }

  /** The name of the schema at `target` in components.schemas, hoisting it the first time. */
  private hoist(key: string, target: Target, value: unknown, inner: Context): string {
    const known = this.hoisted.get(key);
    if (known !== undefined) return known;
    const name = this.nameFor(key, target, value);
    if (this.hoisted.has(key)) return name;
    this.hoisted.set(key, name);
    const place: Path = ['components', 'schemas', name];
    this.hoistedSchemas[name] = null; // the name is taken from now on (a ref back to it in its own content)
    this.mounts.push({
      at: place,
      source: inner.source,
      display: inner.display,
      from: target.path,
      siteLine: inner.siteLine,
    });
    this.hoistedSchemas[name] = this.visit(value, inner, target.path, place);
    return name;
  }
}

const keyOf = (target: Target): string => `${target.abs}\u0000${toPointer(target.path)}`;
