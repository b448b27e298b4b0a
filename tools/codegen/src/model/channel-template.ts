/**
 * The one address matcher, shared with every package: it lives in @exchange-api/types as the
 * subpath `@exchange-api/types/match-channel`, a module that imports nothing generated, so the
 * generator can use it before anything is generated; the generator never imports generated output.
 */
export {
  channelMatcher,
  templatePattern,
  templateParameters,
  type ChannelTemplate,
  type TemplateMatch,
} from '@exchange-api/types/match-channel';
