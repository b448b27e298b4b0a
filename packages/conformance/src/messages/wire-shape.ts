/**
 * A spec that speaks its own messages (not JSON-RPC), as the runner reads it: the generator's wire model
 * (tools/codegen/src/model/wire.ts, `ApiModel.wire`), declared here by its shape since the runner may
 * not import the generator (generate/spec-model.ts says why), with the values each address parameter
 * is filled with.
 */
import type { Schema } from '../generate/spec';

export interface WireMessageShape {
  id: string;
  key: string;
  name?: string;
  payload: { schema: Record<string, unknown> };
  correlation: string | null;
  discriminators: { pointer: string; values: Array<string | number | boolean | null> }[];
  examples: unknown[];
}

export interface WireOperationShape {
  id: string;
  action: 'send' | 'receive';
  channel: string;
  messages: string[];
  correlation: string | null;
  correlationType: 'number' | 'string' | null;
  reply: { channel: string; messages: string[]; correlation: string | null } | null;
}

export interface WireChannelShape {
  id: string;
  address: string | null;
  parameters: string[];
  query: Record<string, unknown> | null;
}

/** The part of the generator's WireModel the runner reads. */
export interface WireShape {
  framing: 'messages';
  reason: string;
  channels: WireChannelShape[];
  messages: WireMessageShape[];
  operations: WireOperationShape[];
}

/** What a run of a message spec reads: the wire, the schemas its payloads refer to, and the parameters' values. */
export interface MsgSpec {
  file: string;
  title: string;
  version: string;
  /** The model's schemas, where payload references point (`#/definitions/<Name>`). */
  doc: { definitions: Record<string, Record<string, unknown>> };
  wire: WireShape;
  /** Per channel id, per parameter, the values the spec lists (the first is used). */
  parameterValues: Record<string, Record<string, string[]>>;
  message(id: string): WireMessageShape;
  payload(id: string): Schema;
}

interface ModelPart {
  title: string;
  version: string;
  schemas: Record<string, Record<string, unknown>>;
  channels: { id: string; parameters: { name: string; enum: string[] | null }[] }[];
  wire?: WireShape;
}

/** The message spec of a model that has a wire (null for a JSON-RPC spec). */
export function msgSpecOf(model: ModelPart, file: string): MsgSpec | null {
  const wire = model.wire;
  if (!wire || wire.framing !== 'messages') return null;
  const byId = new Map(wire.messages.map((m) => [m.id, m]));
  const parameterValues = Object.fromEntries(
    model.channels.map((c) => [c.id, Object.fromEntries(c.parameters.map((p) => [p.name, p.enum ?? []]))]),
  );
  return {
    file,
    title: model.title,
    version: model.version,
    doc: { definitions: model.schemas },
    wire,
    parameterValues,
    message: (id) => byId.get(id)!,
    payload: (id) => byId.get(id)!.payload.schema,
  };
}
