/**
 * The writer's one kind of refusal: its message is one line, naming what is wrong and where. It lives
 * with the link-safe path helpers the generator shares with the conformance runner.
 */
export { WriteRefused } from '@exchange-api/types/write-inside';
