/**
 * What the mock reads of a spec: the part of the generator's model (tools/codegen/src/model/types.ts,
 * WireModel) that says how the spec meets the wire, declared here by its shape. The mock may not
 * import the generator (docs/architecture.md, "Layers"): the command loads the model and hands it over.
 */
export type Schema = Record<string, unknown>;

export interface MockMessage {
  id: string;
  key: string;
  payload: { schema: Schema };
  correlation: string | null;
  discriminators: Array<{ pointer: string; values: Array<string | number | boolean | null> }>;
  examples: unknown[];
}

export interface MockOperation {
  id: string;
  /** What the client does (the mock does the other). */
  action: 'send' | 'receive';
  channel: string;
  messages: string[];
  correlation: string | null;
  reply: { channel: string; messages: string[]; correlation: string | null } | null;
}

export interface MockModel {
  title: string;
  /** Named schemas, referred to as `#/definitions/<Name>`. */
  schemas: Record<string, Schema>;
  /** Absent for a spec that speaks JSON-RPC (the sandbox serves ours). */
  wire?: {
    channels: Array<{ id: string; address: string | null; parameters: string[] }>;
    messages: MockMessage[];
    operations: MockOperation[];
  };
}
