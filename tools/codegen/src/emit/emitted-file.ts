/** A file an emitter produces, relative to the output slot it is written into. */
export interface EmittedFile {
  /**
   * Which package output the file belongs to (`sdk`: a generated SDK's src/; `package`: its root; `lang`: its
   * models in other languages).
   */
  slot: 'types' | 'validators' | 'client' | 'docs' | 'sdk' | 'package' | 'lang';
  /** Path inside the slot, e.g. `types.gen.ts`. */
  path: string;
  content: string;
}

/** Options that depend on where the files land (the repository's packages or one user folder). */
export interface EmitOptions {
  /** How validators import the types: `@exchange-api/types` in the repository, `./types.gen` in one folder. */
  typesImport: string;
}
