/**
 * The reconnect policy, in one place: exponential back-off with jitter and a cap, and a longer floor
 * after the server refused the connection for the per-IP connection limit.
 */

/** Reconnect settings; every field has a default. */
export interface ReconnectPolicy {
  /** First delay. Default 250 ms. */
  initialDelayMs: number;
  /** Cap on any delay. Default 10 000 ms. */
  maxDelayMs: number;
  /** Growth per failed attempt. Default 2. */
  factor: number;
  /** Fraction of each delay drawn at random (0: none, 1: full jitter). Default 0.5. */
  jitter: number;
  /** Attempts in a row before giving up (the client then closes). Default Infinity. */
  maxAttempts: number;
  /** Floor of the delay after a connection-limit refusal, because another socket must close first. Default 5 000 ms. */
  connectionLimitDelayMs: number;
}

/** The defaults of the reconnect policy. */
export const defaultReconnectPolicy: ReconnectPolicy = {
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  factor: 2,
  jitter: 0.5,
  maxAttempts: Infinity,
  connectionLimitDelayMs: 5_000,
};

/** Delay before reconnect attempt number `attempt` (0-based). */
export function backoffDelay(
  policy: ReconnectPolicy,
  attempt: number,
  connectionLimited: boolean,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** attempt);
  const delay = base * (1 - policy.jitter * random());
  return Math.round(
    connectionLimited ? Math.max(delay, policy.connectionLimitDelayMs * (1 - policy.jitter * random() * 0.5)) : delay,
  );
}
