/**
 * The typed description of the API: every record and enumeration, typed channel addresses and their
 * builders, the method map, and the run-time tables. All generated from spec/asyncapi.yaml.
 */
export type * from './generated/types.gen';
export * from './generated/channels.gen';
export type * from './generated/methods.gen';
export * from './generated/tables.gen';
export { matchChannel, fillAddress, type ChannelMatch } from './match-channel';
