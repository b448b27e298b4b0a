import ts from 'typescript';
import type { Field, JsonType, Shape } from './shape';

/**
 * Turns TypeScript types into evidence shapes through the type checker: literal unions become
 * enumerations, named interfaces records (each walked once, into `records`), arrays their items.
 */
export class ShapeReader {
  readonly records: Record<string, Shape> = {};
  private readonly walking = new Set<string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** The shape of a type. */
  shape(type: ts.Type): Shape {
    const c = this.checker;
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { types: ['any'] };
    if (type.isUnion()) return this.union(type.types, type.aliasSymbol?.name);
    if (type.flags & ts.TypeFlags.StringLiteral)
      return { types: ['string'], enum: [(type as ts.StringLiteralType).value] };
    if (type.flags & ts.TypeFlags.NumberLiteral)
      return { types: ['number'], enum: [(type as ts.NumberLiteralType).value] };
    if (type.flags & ts.TypeFlags.BooleanLiteral) return { types: ['boolean'] };
    if (type.flags & ts.TypeFlags.String) return { types: ['string'] };
    if (type.flags & ts.TypeFlags.Number) return { types: ['number'] };
    if (type.flags & ts.TypeFlags.Boolean) return { types: ['boolean'] };
    if (type.flags & ts.TypeFlags.Null) return { types: ['null'] };
    if (c.isTupleType(type))
      return { types: ['array'], tuple: c.getTypeArguments(type as ts.TypeReference).map((t) => this.shape(t)) };
    if (c.isArrayType(type)) {
      const [item] = c.getTypeArguments(type as ts.TypeReference);
      return { types: ['array'], items: item ? this.shape(item) : { types: ['any'] } };
    }
    if (type.flags & ts.TypeFlags.Object || type.isIntersection()) return this.record(type);
    throw new Error(`unsupported type ${c.typeToString(type)}`);
  }

  /** The fields of an object type (its properties, sorted by name). */
  fields(type: ts.Type): Field[] {
    return this.checker
      .getPropertiesOfType(type)
      .map((p) => ({
        name: p.name,
        // An optional property's `undefined` is dropped by union(): what remains is the JSON it may hold.
        required: (p.flags & ts.SymbolFlags.Optional) === 0,
        ...this.shape(this.checker.getTypeOfSymbol(p)),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private record(type: ts.Type): Shape {
    const name =
      type.aliasSymbol?.name ?? (type.symbol && type.symbol.name !== '__type' ? type.symbol.name : undefined);
    const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String);
    const inline = (): Shape => {
      const fields = this.fields(type);
      return {
        types: ['object'],
        ...(fields.length > 0 || !index ? { fields } : {}),
        ...(index ? { values: this.shape(index.type) } : {}),
      };
    };
    if (!name || name === '__object') return inline();
    if (!this.records[name] && !this.walking.has(name)) {
      this.walking.add(name);
      this.records[name] = inline();
      this.walking.delete(name);
    }
    return { types: ['object'], ref: name };
  }

  private union(members: ts.Type[], aliasName?: string): Shape {
    const parts = members.filter((t) => !(t.flags & ts.TypeFlags.Undefined)).map((t) => this.shape(t));
    const types = new Set<JsonType>();
    const enumValues: Array<string | number | boolean> = [];
    const others: Shape[] = [];
    let literalsOnly = true;
    for (const p of parts) {
      p.types.forEach((t) => types.add(t));
      if (p.enum) enumValues.push(...p.enum);
      else if (!(p.types.length === 1 && p.types[0] === 'null')) literalsOnly = false;
      if (!p.enum && !(p.types.length === 1 && (p.types[0] === 'null' || p.types[0] === 'boolean'))) others.push(p);
    }
    const out: Shape = { types: [...types].sort() };
    if (enumValues.length > 0 && literalsOnly) {
      out.enum = enumValues;
      if (aliasName) out.enumName = aliasName;
    }
    if (others.length === 1) Object.assign(out, { ...others[0], types: out.types });
    else if (others.length > 1) {
      const kinds = new Set(others.flatMap((o) => o.types));
      // Several records or containers: keep each alternative; several scalars are just their types.
      if ([...kinds].some((k) => k === 'object' || k === 'array')) out.anyOf = others;
    }
    return out;
  }
}
