/**
 * The integers of a spec beyond JavaScript's exact range, as written (YamlSource.exactIntegers): read from
 * the parsed nodes, or by a second parse where the nodes cannot say (an alias, a tag, a key that is not
 * a plain string). The expected values are what the second parse alone gave for every case.
 */
import { describe, expect, it } from 'vitest';
import { YamlSource } from '../src/load/yaml-source';

const exact = (text: string) => YamlSource.fromText(text, 'spec.yaml').exactIntegers();

describe('integers beyond 2^53, by pointer, as written', () => {
  it.each([
    [
      'decimal, negative and signed',
      'a: 12345678901234567890\nb: -9223372036854775808\nc: +18446744073709551615\n',
      { '#/a': '12345678901234567890', '#/b': '-9223372036854775808', '#/c': '18446744073709551615' },
    ],
    [
      'hexadecimal and octal, never a quoted string or a float',
      'a: 0x1FFFFFFFFFFFFFFFF\nb: 0o7777777777777777777777\nc: "12345678901234567890"\nd: 1234567890123456789.0\n',
      { '#/a': '36893488147419103231', '#/b': '73786976294838206463' },
    ],
    [
      'in lists and nested maps, a leading zero read away',
      'a: [1, 12345678901234567890, {b: 99999999999999999999}]\nc:\n  -\n  - 0012345678901234567890\n',
      { '#/a/1': '12345678901234567890', '#/a/2/b': '99999999999999999999', '#/c/1': '12345678901234567890' },
    ],
    [
      'keys with / and ~ escaped in the pointer',
      "a/b~c: 12345678901234567890\n'x y': 9007199254740993\n",
      { '#/a~1b~0c': '12345678901234567890', '#/x y': '9007199254740993' },
    ],
    [
      'the edges of the exact range',
      'a: 9007199254740991\nb: 9007199254740992\nc: -9007199254740992\nd: 1e20\n',
      { '#/b': '9007199254740992', '#/c': '-9007199254740992' },
    ],
    [
      'an alias: at the anchor and where it is used (second parse)',
      'a: &x 12345678901234567890\nb: *x\n',
      { '#/a': '12345678901234567890', '#/b': '12345678901234567890' },
    ],
    ['a tag (second parse)', 'a: !!int 12345678901234567890\n', { '#/a': '12345678901234567890' }],
    [
      'a key that is a number (second parse)',
      '12345678901234567890: 1\nb: 9007199254740993\n',
      { '#/b': '9007199254740993' },
    ],
  ])('%s', (_name, text, expected) => {
    expect(exact(text)).toEqual(expected);
  });

  it('none in a spec without 16 digits in a row', () => {
    expect(exact('a: 123456789012345\n')).toEqual({});
  });
});
