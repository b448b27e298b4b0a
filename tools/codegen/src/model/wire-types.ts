/**
 * How a spec meets the wire when it is not JSON-RPC: its own messages, as plain JSON, on each channel's
 * address (model/wire.ts builds it; the SDK's client, the mock and the runner read it). Plain and
 * JSON-serialisable, like the rest of the model.
 */
import type { JsonSchema, PayloadModel } from './types';

/** Which framing a spec speaks: our JSON-RPC frames, or the spec's own messages. */
export type Framing = 'json-rpc' | 'messages';

/** The wire of a spec that speaks its own messages. */
export interface WireModel {
  framing: 'messages';
  /** Why: `x-framing: messages`, or what in the spec showed it (the generator notes it). */
  reason: string;
  servers: WireServer[];
  channels: WireChannel[];
  /** Every message an operation (or its reply) names, once, by id. */
  messages: WireMessage[];
  operations: WireOperation[];
}

export interface WireServer {
  id: string;
  /** `protocol://host/pathname`, variables as written (`{region}`). */
  url: string;
  /** Whether a WebSocket reaches it (`ws` / `wss`). */
  ws: boolean;
}

export interface WireChannel {
  id: string;
  /** The address appended to the server URL's path, parameters as `{name}`; null: the server URL itself. */
  address: string | null;
  parameters: string[];
  /** The `ws` bindings' query schema (its properties become the URL's query), or null. */
  query: JsonSchema | null;
  /** The `ws` bindings' headers schema (sent on the handshake where the WebSocket allows), or null. */
  headers: JsonSchema | null;
}

/** A constant a message carries at a place of its payload: what tells it apart before validation. */
export interface Discriminator {
  /** JSON pointer into the payload (`/event`). */
  pointer: string;
  values: Array<string | number | boolean | null>;
}

export interface WireMessage {
  /** The JSON pointer of the message in the spec, refs followed (`/components/messages/ping`). */
  id: string;
  /** Its key in its channel or in components (`ping`). */
  key: string;
  name?: string;
  summary?: string;
  payload: PayloadModel;
  /** Where the payload carries the correlation id (`/reqid`, from `$message.payload#/reqid`), or null. */
  correlation: string | null;
  discriminators: Discriminator[];
  examples: unknown[];
}

export interface WireReply {
  channel: string;
  /** Message ids. */
  messages: string[];
  /** Where a reply carries the request's correlation value: its own location, else the request's. */
  correlation: string | null;
}

export interface WireOperation {
  /** The spec's own key of the operation. */
  id: string;
  /** What the client does: `send` (a request when it has a reply) or `receive`. */
  action: 'send' | 'receive';
  channel: string;
  summary: string;
  /** Message ids. */
  messages: string[];
  /** Where a request carries its correlation value: its own location, else its reply's; null without one. */
  correlation: string | null;
  /** What the correlation value is, by its schema: a number or a string (what the client fills in). */
  correlationType: 'number' | 'string' | null;
  reply: WireReply | null;
}
