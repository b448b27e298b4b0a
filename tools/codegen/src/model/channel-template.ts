/**
 * The one address matcher, shared with every package: it lives in @exchange-api/types
 * (packages/types/src/match-channel.ts), a module that imports nothing generated, so the generator
 * can use it before anything is generated. Imported by path until @exchange-api/types exports it
 * as a subpath (`@exchange-api/types/match-channel`); the generator never imports generated output.
 */
export { channelMatcher, templatePattern, templateParameters, type ChannelTemplate, type TemplateMatch } from '../../../../packages/types/src/match-channel';
