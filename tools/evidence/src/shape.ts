/**
 * The evidence's vocabulary: the JSON a client sends or reads, as facts (names, JSON types, enumerations,
 * nested records), with no code of the client. Records are named once in `records` and referred to.
 */

/** A JSON type as the evidence states it; `any` where the client leaves the value untyped. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array' | 'any';

/** The shape of one value. */
export interface Shape {
  /** The JSON types the value may take (sorted). */
  types: JsonType[];
  /** Its enumeration, where the client lists the values. */
  enum?: Array<string | number | boolean>;
  /** The client's name of the enumeration (a fact that helps a reader map it). */
  enumName?: string;
  /** A record by its name in `records`. */
  ref?: string;
  /** An inline record's fields. */
  fields?: Field[];
  /** The values of a map (`{[k: string]: V}`). */
  values?: Shape;
  /** An array's items. */
  items?: Shape;
  /** A tuple's items, in order. */
  tuple?: Shape[];
  /** Alternatives that are not one object (a union of records). */
  anyOf?: Shape[];
}

/** One field of a record. */
export interface Field extends Shape {
  name: string;
  required: boolean;
}

/** A method as a client types it: what it sends, what it reads. */
export interface MethodEvidence {
  params: Shape;
  result: Shape;
}

/** A channel as a client types it: its address parameters and the pushed data. */
export interface ChannelEvidence {
  params: Record<string, { enum?: string[] }>;
  data: Shape;
}

/** What derive-ts's generated types say, as data. */
export interface DeriveTsEvidence {
  client: { name: 'derive-ts'; version: string; commit: string | null; file: string };
  methods: Record<string, MethodEvidence>;
  channels: Record<string, ChannelEvidence>;
  records: Record<string, Shape>;
  /** The SDK's calls (src/api/*.ts): which wire methods each public method sends. */
  sdk?: SdkMethod[];
}

/** One public method of derive-ts's SDK and the wire methods it sends. */
export interface SdkMethod {
  /** The api file it is in (`marketData`, `orders`, …): derive-ts's grouping. */
  group: string;
  class: string;
  method: string;
  calls: string[];
}

/** What ccxt's derive class lists and calls. */
export interface CcxtEvidence {
  client: { name: 'ccxt'; version: string; files: string[] };
  /** Every method of `describe().api`, with its HTTP verb(s). */
  listed: Record<string, string[]>;
  /** The methods its code calls (REST through the implicit API, WebSocket by name). */
  called: { rest: string[]; ws: string[] };
  /** The channel addresses it subscribes to, `{}` where it fills in a value. */
  channels: string[];
}
