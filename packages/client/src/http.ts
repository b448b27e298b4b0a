/**
 * HTTP POST calls: the method's path from the tables, signed login headers for private methods,
 * the limiter, the call's deadline, and the answer parsed and validated like a WebSocket one.
 */
import { ClientError, ConnectError, ProtocolError, UsageError, type RpcErrorObject } from './errors';
import type { ServerErrors } from './server-errors';
import { startDeadline } from './deadline';
import type { Limiter } from './limiter';
import type { Signing } from './signing';
import type { Validation } from './validation';
import type { ApiMethodEntry, CallOptions } from './types';

/** Where and how HTTP calls go. */
export interface HttpSettings {
  httpUrl: string | undefined;
  fetch: typeof fetch | undefined;
  timeoutMs: number;
  /** The API's methods by name (their HTTP path and login). */
  methods: ReadonlyMap<string, ApiMethodEntry>;
  /** The API's error classes. */
  errors: ServerErrors;
}

/** Calls over HTTP POST. */
export class HttpTransport {
  constructor(
    private readonly settings: HttpSettings,
    private readonly limiter: Limiter | null,
    private readonly signing: Signing,
    private readonly validation: Validation,
  ) {}

  /** POST one call; resolves with its (validated) result, rejects with the typed error. */
  async call(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    const entry = this.settings.methods.get(method)!;
    if (!this.settings.httpUrl) throw new UsageError(`${method} goes over HTTP: pass options.httpUrl`);
    const url = this.settings.httpUrl.replace(/\/+$/, '').replace(/\/v3$/, '') + entry.httpPath;
    const deadline = startDeadline(method, options.timeoutMs ?? this.settings.timeoutMs, options.signal);
    const { signal } = deadline;
    const isPrivate = entry.auth === 'login';
    try {
      // A client used only over HTTP has never connected: its validators load here.
      await this.validation.load();
      // A hinted refusal of what the limiter let through is absorbed: wait for the hint, send again (bounded).
      for (let retries = 0; ; retries++) {
        await this.limiter?.acquire(method, params, isPrivate, signal, retries > 0);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (isPrivate) Object.assign(headers, await this.signing.loginHeaders(method));
        try {
          const result = await this.post(method, url, headers, params, signal);
          return this.validation.checkResult(method, result);
        } catch (err) {
          if (!this.limiter?.absorb(err, retries, method, params, isPrivate)) throw err;
        }
      }
    } catch (err) {
      if (signal.aborted && !(err instanceof ClientError)) throw signal.reason;
      throw err;
    } finally {
      deadline.release();
    }
  }

  /** The POST itself: the answer's result, or its error as the error class of its code. */
  private async post(
    method: string,
    url: string,
    headers: Record<string, string>,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown> {
    const doFetch = this.settings.fetch ?? globalThis.fetch;
    let res: Response;
    try {
      res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(params ?? {}), signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new ConnectError(`${method}: POST ${url} failed: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text();
    let body: { result?: unknown; error?: RpcErrorObject } | null;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProtocolError(
        'http-status',
        `${method}: HTTP ${res.status} with a body that is not JSON`,
        text.slice(0, 200),
      );
    }
    if (body && typeof body === 'object' && body.error) throw this.settings.errors.fromAnswer(body.error);
    if (body && typeof body === 'object' && 'result' in body) return body.result;
    throw new ProtocolError('http-status', `${method}: HTTP ${res.status} without result or error`, text.slice(0, 200));
  }
}
