/**
 * docs/derive-ts-parity.md is what the evidence and the spec make it (no drift), and it names every public
 * method of derive-ts's SDK and every method of its EndpointMap.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelFromSpec, type ApiModel } from '@exchange-api/codegen';
import { loadEvidence } from '../src/load-evidence';
import { GROUP_ORDER, parityPage } from '../src/parity';
import { REPO_ROOT } from '../src/paths';

const { derive } = loadEvidence();
const page = readFileSync(join(REPO_ROOT, 'docs', 'derive-ts-parity.md'), 'utf8');
let model: ApiModel;

beforeAll(async () => {
  model = await modelFromSpec(join(REPO_ROOT, 'spec', 'asyncapi.yaml'), REPO_ROOT);
});

describe('the derive-ts parity page', () => {
  it('is what the evidence and the spec make it (npm run parity -w @exchange-api/evidence)', () => {
    expect(page).toBe(parityPage(derive, model));
  });

  it('has a row for every public SDK method, under its group, and every EndpointMap method', () => {
    const sdk = derive.sdk ?? [];
    expect(sdk.length).toBeGreaterThan(90);
    for (const g of GROUP_ORDER) expect(page).toContain(`\n## ${g}\n`);
    for (const s of sdk) expect(page).toContain(`| \`${s.group}.${s.method}\` |`);
    for (const name of Object.keys(derive.methods)) expect(page).toContain(`\`${name}\``);
  });

  it('gives our call for every method the SDK sends that the spec has, with the limiter class', () => {
    const byName = new Map(model.methods.map((m) => [m.name, m]));
    const order = byName.get('private/order')!;
    expect(page).toMatch(
      new RegExp(
        `\\| \`orders\\.\\w+\` \\| \`private/order\` \\| \`client\\.${order.id}\\(…\\)\` \\| .*limiter: matching`,
      ),
    );
    const changed = structuredClone(model);
    changed.methods.find((m) => m.name === 'public/get_instrument')!.rateLimitClass = 'custom';
    expect(parityPage(derive, changed)).not.toBe(page);
  });
});
