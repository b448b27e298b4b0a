/** Infer a JSON Schema from sample payloads with quicktype-core (for payloads the document leaves open). */
import { InputData, jsonInputForTargetLanguage, quicktype } from 'quicktype-core';

/**
 * The JSON Schema quicktype infers from the samples (at most 50 are used). quicktype drops named string
 * aliases (every decimal is just `string`) and sorts properties; the result describes, it does not judge.
 */
export async function inferSchema(name: string, samples: readonly unknown[]): Promise<unknown> {
  const input = jsonInputForTargetLanguage('schema');
  await input.addSource({ name, samples: samples.slice(0, 50).map((s) => JSON.stringify(s)) });
  const data = new InputData();
  data.addInput(input);
  const result = await quicktype({ inputData: data, lang: 'schema' });
  return JSON.parse(result.lines.join('\n'));
}
