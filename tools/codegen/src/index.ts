export { loadSpec, placedError, type LoadedSpec, type LoadOptions } from './load/load-spec';
export type { Conversion } from './load/convert-v2';
export { SpecError, formatProblem, toPointer, type SpecProblem } from './load/spec-error';
export { terminalText, terminalLines } from './text/terminal-text';
export { buildModel } from './model/build-model';
export { messageVariants } from './model/schema-tools';
export { defaultNote, DEFAULT_KINDS } from './model/plain-spec';
export {
  channelMatcher,
  templatePattern,
  templateParameters,
  type ChannelTemplate,
  type TemplateMatch,
} from './model/channel-template';
export { checkExamples } from './model/check-examples';
export type * from './model/types';
export { emitTypes } from './emit/types';
export { emitTables } from './emit/tables';
export { emitClientSurface } from './emit/client';
export { emitValidators, exportName } from './emit/validators';
export {
  emitDocs,
  collectExamples,
  exampleAddress,
  SiteMap,
  safeId,
  searchEntries,
  SEARCH_KINDS,
  type Examples,
  type ChannelExample,
  type MethodExample,
  type SearchEntry,
  type DocsChanges,
} from './emit/docs/emit-docs';
export { emitLanguages } from './emit/lang/emit-languages';
export { LANGUAGES, langFlag, parseLanguages, UnknownLanguage, type LanguageTarget } from './emit/lang/languages';
export type { EmittedFile, EmitOptions } from './emit/emitted-file';
export {
  writeFiles,
  headerFor,
  WriteRefused,
  MANIFEST_NAME,
  type WriteResult,
  type WriteOptions,
} from './write/writer';
export { makeFolder } from '@exchange-api/types/write-inside';
export {
  modelFromSpec,
  lenientModelFromSpec,
  emitAll,
  findRepoRoot,
  generateRepository,
  generateInto,
  type SdkResult,
} from './generate';
export { emitSdk, isBuildOutput, type Sdk, type SdkSettings } from './generate-sdk';
export { packageNameOf, packageVersionOf, packageNameProblem, TOOLKIT_VERSION } from './emit/package';
export { emitSdkClient } from './emit/sdk-client';
export { diffSpecFiles, diffModels, type SpecDiff } from './diff/diff-specs';
export {
  FIXED_RULES,
  FLOW_RULES,
  SEVERITIES,
  verdictOf,
  type Severity,
  type Flow,
  type RuleId,
  type Verdict,
} from './diff/rules';
export type { Change } from './diff/change';
export {
  consoleReport,
  jsonReport,
  markdownReport,
  summaryLine,
  failsOn,
  countsOf,
  namesToFix,
  SIDES,
  type Side,
} from './diff/render';
