/**
 * The spec is typed once (src/load/spec-types.ts): checkConventions is the guard that returns that
 * view of a spec in which it found no error, and the model is built only from such a view.
 */
import { describe, expect, it } from 'vitest';
import { checkConventions } from '../src/load/conventions';
import { withCheckedSpec } from '../src/load/load-spec';
import { YamlSource } from '../src/load/yaml-source';
import { SpecError } from '../src/index';
import { miniSpec, ourSpec, writeSpec } from './helpers';

const channel = (extra: string) =>
  miniSpec(`channels:
  ticks:
    address: ticks
    ${extra}
    messages:
      Tick: { payload: { type: string } }
operations:
  onTicks: { action: receive, channel: { $ref: '#/channels/ticks' } }`);

const check = (text: string) => {
  const problems: string[] = [];
  const view = checkConventions(YamlSource.read(writeSpec(text)).data, (path, message, severity = 'error') =>
    problems.push(`${severity} ${path.join('/')}: ${message}`),
  );
  return { view, problems };
};

describe('checkConventions, the guard of the typed view', () => {
  it('returns the spec as the view when it finds no error, our own spec included', () => {
    const source = YamlSource.read(ourSpec);
    const view = checkConventions(source.data, () => {});
    expect(view).toBe(source.data);
    expect(view?.info.title).toBe((source.data as { info: { title: string } }).info.title);
    const { view: plain, problems } = check(channel("'x-access': private"));
    expect(problems).toEqual([]);
    expect(plain?.channels?.ticks).toMatchObject({ address: 'ticks', 'x-access': 'private' });
  });

  it('returns null when it reports an error, and the view when it reports only warnings', () => {
    const bad = check(channel("'x-access': secret"));
    expect(bad.view).toBeNull();
    expect(bad.problems).toEqual([
      'error channels/ticks/x-access: x-access must be one of public, private (got "secret")',
    ]);
    const warned = check(channel("'x-colour': blue"));
    expect(warned.view).not.toBeNull();
    expect(warned.problems).toEqual([
      expect.stringMatching(/^warning channels\/ticks\/x-colour: unknown extension x-colour/),
    ]);
    expect(check('just text').view).toBeNull();
  });

  it(
    'builds nothing from a spec it refuses: the work never runs, and every error ' + 'comes back in one SpecError',
    async () => {
      let ran = false;
      const file = writeSpec(channel("'x-access': secret"));
      const refused = await withCheckedSpec(file, {}, () => {
        ran = true;
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SpecError);
      expect((refused as SpecError).problems.map((p) => p.message)).toContain(
        'x-access must be one of public, private (got "secret")',
      );
      expect(ran).toBe(false);
    },
    30_000,
  );
});
