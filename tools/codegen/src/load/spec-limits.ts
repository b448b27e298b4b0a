/**
 * The size and depth limits of a spec, checked on its data (the YAML/JSON tree) before anything else
 * reads it and before the AsyncAPI parser runs. The parser, ajv and the code formatters recurse
 * and slow down superlinearly on extreme shapes: a 10,000-long `$ref` chain or a 100,000-value enum
 * kept the parser busy for minutes; an object nested 200 levels overflowed the stack. These checks
 * walk the tree once, with their own stack, so they cost time in proportion to the spec's size and
 * stop such a spec in a second, naming the file, the JSON pointer and the limit.
 *
 * The limits are far above what real specs use (this repository's spec nests 10 levels, has 129
 * named schemas, enums of at most 14 values and $ref chains of a few links), and below where a step
 * of loading or generating stops working or takes minutes (docs/generating.md, "Limits").
 */
import { longestRefChain } from './ref-cycles';
import { toPointer, type SpecProblem } from './spec-error';
import { isObj } from './spec-types';
import { DATA_KEYWORDS, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE } from '@exchange-api/types/json-schema-keywords';

type Path = Array<string | number>;

/** The limits: each is the most a spec may have (more is refused). */
export interface SpecLimits {
  /** Levels of nesting of the document (maps and lists): an object schema takes two (`properties`, its name). */
  depth: number;
  /** `$ref`s followed in a row along one path from the document's root, a recursion counted once. */
  refChain: number;
  /** Values of one `enum`. */
  enumValues: number;
  /** Schemas in the whole document: named ones, payloads, headers and every schema inside them. */
  schemas: number;
}

export const SPEC_LIMITS: Readonly<SpecLimits> = Object.freeze({
  depth: 100,
  refChain: 64,
  enumValues: 10_000,
  schemas: 20_000,
});

/** What a node of the document is, for counting schemas: `data` is an example's or a default's content. */
type Kind = 'other' | 'schema' | 'map' | 'list' | 'data';

/** The kind of the child at `key` of a node of kind `kind` (`node` is the parent). */
function childKind(kind: Kind, node: Record<string, unknown>, key: string, path: Path, value: unknown): Kind {
  if (kind === 'data' || DATA_KEYWORDS.has(key)) return 'data';
  if (kind === 'map' || kind === 'list') return 'schema';
  if (kind === 'other') {
    if (key === 'payload' || key === 'headers') return 'schema';
    return path.length === 1 && path[0] === 'components' && key === 'schemas' ? 'map' : 'other';
  }
  if (SCHEMA_MAP.has(key)) return 'map';
  // `items` is one schema, or (draft-07) a list of them: asked as one first.
  if (SCHEMA_ONE.has(key)) return Array.isArray(value) ? 'list' : 'schema';
  if (SCHEMA_LIST.has(key)) return 'list';
  // A multi-format schema's `schema` is the schema itself.
  if (key === 'schema' && typeof node.schemaFormat === 'string') return 'schema';
  return 'other';
}

/** What the walk found: the first place too deep, the enums too long, the count of schemas, the deepest place. */
export interface TreeFacts {
  tooDeep: Path | null;
  longEnums: Array<{ path: Path; size: number }>;
  schemas: number;
  deepest: Path;
}

/** One walk over the tree, with its own stack (a deep tree cannot overflow it). */
export function treeFacts(data: unknown, limits: Readonly<SpecLimits> = SPEC_LIMITS): TreeFacts {
  const facts: TreeFacts = { tooDeep: null, longEnums: [], schemas: 0, deepest: [] };
  const stack: Array<{ node: unknown; path: Path; kind: Kind }> = [{ node: data, path: [], kind: 'other' }];
  while (stack.length > 0) {
    const { node, path, kind } = stack.pop()!;
    if (path.length > facts.deepest.length) facts.deepest = path;
    if (path.length > limits.depth) {
      facts.tooDeep ??= path;
      continue;
    }
    if (kind === 'schema' && isObj(node)) facts.schemas++;
    if (Array.isArray(node)) {
      const item: Kind = kind === 'list' ? 'schema' : kind === 'data' ? 'data' : 'other';
      node.forEach((v, i) => stack.push({ node: v, path: [...path, i], kind: item }));
    } else if (isObj(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'enum' && kind !== 'data' && Array.isArray(v) && v.length > limits.enumValues)
          facts.longEnums.push({ path: [...path, k], size: v.length });
        stack.push({ node: v, path: [...path, k], kind: childKind(kind, node, k, path, v) });
      }
    }
  }
  return facts;
}

/** Where a problem is: the file, and the line of a path in it. */
export interface Place {
  file: string;
  lineOf: (path: Path) => number | undefined;
}

const see = 'see docs/generating.md, "Limits"';

/**
 * Every limit the spec's data goes beyond, as errors naming the file, the line, the JSON pointer and
 * the limit; none for a spec within them. The `$ref` chain is measured only on a tree within the depth.
 */
export function limitProblems(data: unknown, place: Place, limits: Readonly<SpecLimits> = SPEC_LIMITS): SpecProblem[] {
  const facts = treeFacts(data, limits);
  const problems: SpecProblem[] = [];
  const add = (path: Path, message: string) =>
    problems.push({ file: place.file, pointer: toPointer(path), line: place.lineOf(path), message, severity: 'error' });
  if (facts.tooDeep)
    add(
      facts.tooDeep,
      `the spec nests more than ${limits.depth} levels deep here (maps and lists; ` +
        `an object schema takes two levels a property); a spec may nest at most ${limits.depth} (${see})`,
    );
  for (const e of facts.longEnums)
    add(e.path, `enum of ${e.size} values; an enum may have at most ${limits.enumValues} (${see})`);
  if (facts.schemas > limits.schemas)
    add(
      isObj(data) && isObj(data.components) && isObj(data.components.schemas) ? ['components', 'schemas'] : [],
      `the spec has ${facts.schemas} schemas (named ones, payloads, headers and ` +
        `every schema inside them); a spec may have at most ${limits.schemas} (${see})`,
    );
  if (!facts.tooDeep) {
    const chain = longestRefChain(data);
    if (chain.length > limits.refChain) {
      const shown = chain.pointers.slice(0, 3).join(' → ');
      add(
        chain.start,
        `${chain.length} $refs are followed in a row from here (${shown} → …); a ` +
          `spec may chain at most ${limits.refChain} (${see})`,
      );
    }
  }
  return problems;
}
