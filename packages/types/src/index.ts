/**
 * The typed description of the API: every record and enumeration, typed channel addresses and their
 * builders, the method map, and the run-time tables. All generated from spec/asyncapi.yaml.
 */
export type * from './generated/types.gen';
export * from './generated/channels.gen';
export type * from './generated/methods.gen';
export * from './generated/tables.gen';
export { matchChannel, type ChannelMatch } from './channel-lookup';
export {
  channelMatcher,
  templatePattern,
  templateParameters,
  fillAddress,
  type ChannelTemplate,
  type TemplateMatch,
} from './match-channel';
export {
  budgetOf,
  endpointBudgetOf,
  endpointKeyOf,
  limitOf,
  classBudgetOf,
  publicBudget,
  defaultRateLimitClass,
  type BudgetRef,
  type BudgetKey,
  type RateLimitRule,
  type WindowLimitId,
  type WindowLimitEntry,
} from './rate-limits';
export {
  errorOfKind,
  errorByName,
  errorByCode,
  isRateLimitCode,
  formatRetryHint,
  parseRetryHint,
  type ErrorKind,
  type ErrorName,
  type ErrorCode,
} from './errors';
export {
  rateLimitRules,
  namesInstrument,
  type RateLimitRules,
  type RateLimitTables,
  type RateLimitMethodEntry,
  type RateLimitClassEntry,
  type RateLimitRuleEntry,
  type LimitTableEntry,
  type BudgetRefOf,
} from './rate-limit-rules';
export {
  errorCodes,
  RETRY_PLACEHOLDER,
  type ErrorCodes,
  type ErrorTableEntry,
  type ErrorTableLike,
} from './error-codes';
