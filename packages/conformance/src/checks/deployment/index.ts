/**
 * The deployment checks (area `deployment`, only with two or more endpoints: `--ws URL1,URL2`): what
 * the endpoints of one deployment must share. One wallet's budget, the per-IP connection limit, used
 * nonces and pushes, and what getRateLimits reports. Each names the endpoints A, B, … in its findings.
 */
import type { Check } from '../../context';
import { limitsChecks } from './limits';
import { budgetChecks } from './budget';
import { orderChecks } from './orders';
import { connectionChecks } from './connections';

/** Every deployment check, in run order (the budget-spending and connection-filling ones last). */
export const deploymentChecks: Check[] = [...limitsChecks, ...orderChecks, ...budgetChecks, ...connectionChecks];
