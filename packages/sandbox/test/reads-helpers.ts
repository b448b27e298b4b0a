/**
 * One read over both transports, its result checked against the spec's schema of the method: the
 * WebSocket through a logged-in Client, HTTP as a POST with the login headers (private methods) or
 * without (public ones). Both answers are returned so that a test can compare them.
 */
import { expect } from 'vitest';
import type { Signer } from 'ethers';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { validators } from '@exchange-api/validators';
import type { Sandbox } from '../src/index';
import { post, type Client } from './helpers';

/** Check a result against the spec's schema for the method. */
export function valid(method: string, result: unknown): void {
  const validate = validators.results[method as keyof typeof validators.results];
  expect(validate, `${method} has a result schema`).toBeTypeOf('function');
  expect(validate(result), `${method}: ${JSON.stringify(validate.errors ?? []).slice(0, 400)}`).toBe(true);
}

/** Call over the WebSocket and check the result. */
export async function wsRead(c: Client, method: string, params: unknown = {}): Promise<any> {
  const result = await c.call(method, params);
  valid(method, result);
  return result;
}

/** POST to the method's path (with the wallet's login when given) and check the result. */
export async function httpRead(sb: Sandbox, method: string, params: unknown = {}, wallet?: Signer): Promise<any> {
  // Signed at the sandbox's time: a test may have moved its clock.
  const nowMs = wallet ? (await post(sb, '/v3/public/get_time', {})).json.result : undefined;
  const headers = wallet ? loginHeaders(await signLogin(wallet, { nowMs })) : {};
  const res = await post(sb, `/v3/${method}`, params, headers);
  expect(res.json.error, `${method} over HTTP`).toBeUndefined();
  expect(res.status).toBe(200);
  valid(method, res.json.result);
  return res.json.result;
}

/** Both transports: the WebSocket's answer and HTTP's. */
export async function bothReads(
  sb: Sandbox,
  c: Client,
  method: string,
  params: unknown = {},
  wallet?: Signer,
): Promise<[any, any]> {
  return [await wsRead(c, method, params), await httpRead(sb, method, params, wallet)];
}
