/** The check registry, in run order: cheap framing first; budget-consuming and connection checks last. */
import type { Check } from '../context';
import { framingChecks } from './framing';
import { clientCompatChecks } from './client-compat';
import { subscriptionChecks } from './subscriptions';
import { channelChecks } from './channels';
import { semanticChecks } from './semantics';
import { observationChecks } from './observe';
import { loginChecks } from './login';
import { accessChecks } from './access';
import { orderflowChecks } from './orderflow';
import { orderRuleChecks } from './order-rules';
import { rateLimitChecks } from './ratelimit/index';
import { connectionChecks } from './connections';
import { deploymentChecks } from './deployment/index';

/** Every check the runner knows, in the order it runs them. */
export const registry: readonly Check[] = [
  ...framingChecks,
  ...clientCompatChecks,
  ...subscriptionChecks,
  ...channelChecks,
  ...semanticChecks,
  ...observationChecks,
  ...loginChecks,
  ...accessChecks,
  ...orderflowChecks,
  ...orderRuleChecks,
  ...rateLimitChecks,
  ...connectionChecks,
  ...deploymentChecks,
];
