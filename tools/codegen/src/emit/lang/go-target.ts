/**
 * quicktype's Go target with one fix: when two schemas have the same shape (two enums with the same
 * values, a record and an allOf of only that record), quicktype declares the shared type under one
 * name and still writes `UnmarshalX(...) (X, error)` for the other, naming a type it never declares
 * (26.0.0; the output does not compile). The same happens to a top-level that is a nullable union
 * (Go writes those inline, never as a named type). Here each such top-level is declared over the
 * type quicktype uses for it; go-records.ts gives it the shared type's JSON methods. And no property
 * takes the name of a field or method the records get here.
 */
import {
  GoRenderer,
  GoTargetLanguage,
  UnionType,
  getOptionValues,
  goOptions,
  nullableFromUnion,
  type LanguageName,
  type Name,
  type RenderContext,
  type RendererOptions,
  type Type,
} from 'quicktype-core';

type BlankLines = Parameters<GoRenderer['forEachTopLevel']>[0];
type Position = Parameters<Parameters<GoRenderer['forEachTopLevel']>[1]>[2];
type Source = Parameters<GoRenderer['emitLine']>[0];

/** Whether quicktype's Go renderer declares this named type under its name (nullable unions it writes inline). */
const declared = (t: Type) => !(t instanceof UnionType && nullableFromUnion(t) !== null);

/**
 * Field names a property must not take: the two fields and the methods each record gets here
 * (go-records.ts) and quicktype's own Marshal (Go refuses a field and a method of one name). A
 * property so named (`JSONExtra`, `marshal`) is named otherwise by quicktype, as for any clash.
 */
export const GO_RESERVED_FIELDS = ['JSONExtra', 'JSONNulls', 'Marshal', 'MarshalJSON', 'UnmarshalJSON'];

class DeclaringGoRenderer extends GoRenderer {
  protected override forbiddenForObjectProperties(): { names: string[]; includeGlobalForbidden: boolean } {
    return { names: GO_RESERVED_FIELDS, includeGlobalForbidden: false };
  }

  protected override forEachTopLevel(
    blankLocations: BlankLines,
    f: (t: Type, name: Name, position: Position) => void,
    predicate?: (t: Type) => boolean,
  ): boolean {
    return super.forEachTopLevel(
      blankLocations,
      (t, name, position) => {
        const named = this.namedTypeToNameForTopLevel(t);
        // Only while declaring top-levels (`leading-and-interposing`), not in the imports pass.
        if (
          blankLocations === 'leading-and-interposing' &&
          named !== undefined &&
          (this.nameForNamedType(named) !== name || !declared(named))
        ) {
          // goType is private in quicktype's typings; it is the type the renderer writes for t.
          const goType = (this as unknown as { goType(t: Type): Source }).goType(t);
          this.ensureBlankLine();
          this.emitLine('type ', name, ' ', goType);
        }
        f(t, name, position);
      },
      predicate,
    );
  }
}

export class DeclaringGoTarget extends GoTargetLanguage {
  protected override makeRenderer<Lang extends LanguageName = 'go'>(
    renderContext: RenderContext,
    untypedOptionValues: RendererOptions<Lang>,
  ): GoRenderer {
    return new DeclaringGoRenderer(this, renderContext, getOptionValues(goOptions, untypedOptionValues));
  }
}
