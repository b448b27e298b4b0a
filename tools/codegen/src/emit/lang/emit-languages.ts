/** Emitter: the model's records and enumerations in other languages, one folder per language. */
import type { ApiModel } from '../../model/types';
import type { EmittedFile } from '../emitted-file';
import { emitGo } from './go';
import { type LanguageTarget } from './languages';
import { emitPython } from './python';

const EMITTERS: Record<string, (model: ApiModel) => Promise<string>> = { python: emitPython, go: emitGo };

/** One file per chosen language, at `<language>/<file>` in the `lang` slot. */
export async function emitLanguages(model: ApiModel, targets: readonly LanguageTarget[]): Promise<EmittedFile[]> {
  const files: EmittedFile[] = [];
  for (const target of targets) {
    const emit = EMITTERS[target.id];
    if (!emit) throw new Error(`no emitter for the language ${target.id}`);
    files.push({ slot: 'lang', path: `${target.id}/${target.file}`, content: await emit(model) });
  }
  return files;
}
