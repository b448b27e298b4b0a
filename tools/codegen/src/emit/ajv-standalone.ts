/**
 * ajv's standalone module of several exports (`standaloneCode(ajv, refs)` of ajv/dist/standalone),
 * the same text, built in time and memory in proportion to its size. ajv's own builds the module by
 * re-spreading everything written so far into a new code object at each export: quadratic, and past
 * some 10,000 exports (a spec of 10,000 schemas) `Array.prototype.push(...items)` takes more
 * arguments than the stack holds and throws "Maximum call stack size exceeded", after a minute and
 * 1.5 GB. Here each export's code is a string, joined once at the end. Only the ES module form (our
 * validators are one) and ajv 8's internals as of 8.20 (its codegen scope and code objects).
 */
import type { Ajv } from 'ajv';
import { _, _Code, nil, getEsmExportName, type Code } from 'ajv/dist/compile/codegen/code.js';
import { UsedValueState, varKinds, type UsedScopeValues, type ValueScopeName } from 'ajv/dist/compile/codegen/scope.js';
import type { SourceCode } from 'ajv/dist/types/index.js';

/** The standalone ES module exporting, under each key of `refs`, the validating function of the schema it names. */
export function standaloneCode(ajv: Ajv, refs: Record<string, string>): string {
  if (!ajv.opts.code.source) throw new Error('moduleCode: ajv instance must have code.source option');
  if (!ajv.opts.code.esm) throw new Error('standaloneCode: only the ES module form (code.esm) is built here');
  const { _n } = ajv.scope.opts;
  const usedValues: UsedScopeValues = {};
  const parts: string[] = ['"use strict";'];
  for (const [name, ref] of Object.entries(refs)) {
    const v = ajv.getSchema(ref);
    if (!v) throw new Error(`moduleCode: no schema with id ${ref}`);
    const vCode = validateCode(ajv, usedValues, v.source);
    parts.push(`${_n}${_`export const ${getEsmExportName(name)} = ${v.source?.validateName};`}${_n}${vCode}`);
  }
  return parts.join('');
}

function usedState(usedValues: UsedScopeValues, name: ValueScopeName): UsedValueState | undefined {
  return usedValues[name.prefix]?.get(name);
}

function setUsedState(usedValues: UsedScopeValues, name: ValueScopeName, state: UsedValueState): void {
  const names = (usedValues[name.prefix] ??= new Map());
  names.set(name, state);
}

/** The code of one validating function and of the values it uses that are not written yet (as ajv writes them). */
function validateCode(ajv: Ajv, usedValues: UsedScopeValues, s: SourceCode | undefined): Code {
  if (!s) throw new Error('moduleCode: function does not have "source" property');
  if (usedState(usedValues, s.validateName) === UsedValueState.Completed) return nil;
  setUsedState(usedValues, s.validateName, UsedValueState.Started);
  const { _n } = ajv.scope.opts;
  const refValidateCode = (n: ValueScopeName): Code | undefined => {
    const vRef = n.value?.ref;
    if (n.prefix === 'validate' && typeof vRef == 'function')
      return validateCode(ajv, usedValues, (vRef as { source?: SourceCode }).source);
    if ((n.prefix === 'root' || n.prefix === 'wrapper') && typeof vRef == 'object') {
      const { validate, validateName } = vRef as { validate?: { source?: SourceCode }; validateName?: Code };
      if (!validateName) throw new Error('ajv internal error');
      const def = ajv.opts.code.es5 ? varKinds.var : varKinds.const;
      const wrapper = _`${def} ${n} = {validate: ${validateName}};`;
      if (usedState(usedValues, validateName as ValueScopeName) === UsedValueState.Started) return wrapper;
      return _`${wrapper}${_n}${validateCode(ajv, usedValues, validate?.source)}`;
    }
    return undefined;
  };
  const scopeCode = ajv.scope.scopeCode(s.scopeValues, usedValues, refValidateCode);
  const code = new _Code(`${scopeCode}${_n}${s.validateCode}`);
  return s.evaluated ? _`${code}${s.validateName}.evaluated = ${s.evaluated};${_n}` : code;
}
