/** The writer's one kind of refusal: its message is one line, naming what is wrong and where. */

/** Thrown when writing would touch a file the generator did not write, or a path it may not touch. */
export class WriteRefused extends Error {
  override readonly name = 'WriteRefused';
}
