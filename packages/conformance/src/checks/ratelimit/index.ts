/**
 * Rate limits: getRateLimits on both transports and its cost, what is (not) decremented and under which
 * key (IP before login, the wallet after, across its connections and session keys), exceeding a budget
 * (code, message, hint, at once), the window reset, the shared matching budget, cancel_all's and
 * cancel_by_label's budgets, and the tier-2 per-instrument bucket. Budgets are read from the server.
 * Budget-consuming probes log in a fresh random wallet when the server allows it, so they do not eat
 * into the budgets other checks use; otherwise they use the caller's wallet, or the per-IP budget.
 */
import type { Check } from '../../context';
import { getRateLimitsChecks } from './get-rate-limits';
import { keyingChecks } from './keying';
import { exhaustionChecks } from './exhaustion';
import { matchingChecks } from './matching';
import { bucketChecks } from './bucket';

/** Every rate-limit check, in run order (the budget-spending probes last). */
export const rateLimitChecks: Check[] = [
  ...getRateLimitsChecks,
  ...keyingChecks,
  ...exhaustionChecks,
  ...matchingChecks,
  ...bucketChecks,
];
