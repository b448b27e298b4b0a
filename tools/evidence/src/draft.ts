/**
 * `npm run draft -w @exchange-api/evidence -- <method>...`: prints a draft of the spec's YAML for methods
 * of the evidence (operation, messages, the records they need) for a person to review and paste into
 * spec/asyncapi.yaml. It never writes the spec.
 */
import { join } from 'node:path';
import { modelFromSpec } from '@exchange-api/codegen';
import { loadEvidence } from './load-evidence';
import { REPO_ROOT } from './paths';
import { Drafter, methodDraft } from './yaml-draft';

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  if (names.length === 0) throw new Error('name one or more methods of the evidence, e.g. private/get_account');
  const model = await modelFromSpec(join(REPO_ROOT, 'spec', 'asyncapi.yaml'), REPO_ROOT);
  const { derive } = loadEvidence();
  const drafter = new Drafter(derive, new Set(Object.keys(model.schemas)), 'client-endpoint-map');
  const parts = names.map((n) => {
    const m = derive.methods[n];
    if (!m) throw new Error(`${n}: not a method of derive-ts ${derive.client.version}'s EndpointMap`);
    const typeOf = (s: { ref?: string; types: string[] }) => s.ref ?? s.types.join('|');
    return methodDraft(n, m, drafter, { params: typeOf(m.params), result: typeOf(m.result) }, 'client-endpoint-map');
  });
  console.log('# channels.rpc.messages:');
  console.log(parts.map((p) => p.channel).join('\n'));
  console.log('# operations:');
  console.log(parts.map((p) => p.operation).join('\n'));
  console.log('# components.messages:');
  console.log(parts.map((p) => p.messages).join('\n'));
  console.log('# components.schemas:');
  console.log([...drafter.records.values()].join('\n'));
}

main().catch((e: unknown) => {
  console.error(`draft: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
