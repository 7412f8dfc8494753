// What VS Code's own JSON validation reports for a *.json spec, and what stays ours. The manifest
// contributes an editor schema derived from the one schema (schemas/compute-spec.editor.schema.json,
// written from `editorSchema`): it keeps everything completion and hover read, but not the keywords
// whose problems ours explain better — a missing field (the editor's "Missing property" covers the
// whole object, i.e. the whole file), an unknown field (ours names the field it most likely meant) and
// a memory unit (ours says the value in Mi). Those show once, ours, on the field (docs/specs.md).

import type { SpecDiagnostic, SpecFormat } from './types';

/** Schema keywords VS Code's JSON validation still reports from the editor schema, on the same place as ours. */
const EDITOR_JSON_KEYWORDS = new Set(['syntax', 'type', 'enum', 'const', 'anyOf', 'oneOf', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'format', 'propertyNames']);

/** True when VS Code's JSON validation already shows this problem of a `format` file (then the editor leaves ours out). */
export function editorRepeats(diagnostic: SpecDiagnostic, format: SpecFormat): boolean {
  if (format !== 'json' || diagnostic.origin === undefined) return false;
  return EDITOR_JSON_KEYWORDS.has(diagnostic.origin);
}

/** The editor schema: `schema` without `required`, closed objects, and the type of unit fields (ours report those). */
export function editorSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(editorSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'required' && Array.isArray(value)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'type' && typeof source['x-unit'] === 'string') continue;
    if (key === '$id' && typeof value === 'string') {
      result[key] = value.replace(/\.schema\.json$/, '.editor.schema.json');
      continue;
    }
    // Property names are data, not keywords: a property called "required" keeps its schema.
    result[key] = key === 'properties' || key === 'definitions' ? mapValues(value) : editorSchema(value);
  }
  return result;
}

function mapValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, editorSchema(entry)]));
}
