/**
 * quicktype's Python target with the names python.ts adds kept from the spec's properties: each record
 * gets the fields `json_extra` and `json_nulls`, and its class body reads `dataclass_field`,
 * `frozenset` and `staticmethod` and defines `from_dict` and `to_dict`. A property so named would take
 * the field's place (its value passed twice) or shadow the name in the class body (None called at
 * import), so quicktype names such a property otherwise, as it does for a keyword (`class_`).
 */
import {
  JSONPythonRenderer,
  PythonTargetLanguage,
  getOptionValues,
  pythonOptions,
  type ClassType,
  type LanguageName,
  type Name,
  type RenderContext,
  type RendererOptions,
} from 'quicktype-core';

/** quicktype's ForbiddenWordsInfo (not exported from its index). */
interface ForbiddenWords {
  includeGlobalForbidden: boolean;
  names: Array<Name | string>;
}

/** The names a property of a record must not take (see the module comment). */
export const PYTHON_RESERVED_FIELDS = [
  'json_extra',
  'json_nulls',
  'dataclass_field',
  'frozenset',
  'staticmethod',
  'from_dict',
  'to_dict',
];

class KeepingPythonRenderer extends JSONPythonRenderer {
  protected override forbiddenForObjectProperties(o: ClassType, className: Name): ForbiddenWords {
    const own = super.forbiddenForObjectProperties(o, className);
    return { ...own, names: [...own.names, ...PYTHON_RESERVED_FIELDS] };
  }
}

export class KeepingPythonTarget extends PythonTargetLanguage {
  protected override makeRenderer<Lang extends LanguageName = 'python'>(
    renderContext: RenderContext,
    untypedOptionValues: RendererOptions<Lang>,
  ): JSONPythonRenderer {
    return new KeepingPythonRenderer(this, renderContext, getOptionValues(pythonOptions, untypedOptionValues));
  }
}
