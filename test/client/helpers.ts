/** Shared pieces of the client ↔ sandbox tests: the control plane and polling with a deadline. */
import type { Sandbox } from '@exchange-api/sandbox';

/** POST (or GET without a body) to the sandbox's control plane; throws on a non-2xx answer. */
export async function control(sb: Sandbox, action: string, body?: unknown): Promise<any> {
  const res = await fetch(
    `${sb.httpUrl}/control/${action}`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const json = await res.json();
  if (!res.ok) throw new Error(`control ${action}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Resolve when `check` holds; reject naming `what` after `ms`. The bound only stops a hang, so it is
 * generous: on a loaded machine an event the test waits for may come many seconds late.
 */
export async function until(check: () => boolean | Promise<boolean>, ms = 60_000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Limits generous enough that tests which are not about rate limits never meet one. */
export const roomyLimits = {
  public: { points: 100_000 },
  non_matching: { points: 100_000 },
  matching: { points: 100_000 },
  cancel_all: { points: 100_000 },
  cancel_by_label: { points: 100_000 },
  bucket_perp_spot: { capacity: 100_000, refillPerSecond: 100_000 },
  bucket_option: { capacity: 100_000, refillPerSecond: 100_000 },
};
