// The editor schema (what VS Code's JSON validation sees) is derived from the one schema: it keeps what
// completion and hover read and leaves out the keywords whose problems ours report better.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { editorSchema } from '../../../src/core/specs/editorOverlap';
import { EDITOR_SCHEMA_FILE, ROOT, expectedEditorSchemaText, sourceSchema } from './editorSchemaFile';

function keywords(schema: unknown, found = new Set<string>(), underProperties = false): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => keywords(item, found));
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (!underProperties) found.add(key === 'additionalProperties' && value === false ? 'additionalProperties:false' : key);
      keywords(value, found, !underProperties && (key === 'properties' || key === 'definitions'));
    }
  }
  return found;
}

describe('the editor schema', () => {
  it('is the file the manifest contributes, written from the one schema', () => {
    assert.equal(readFileSync(EDITOR_SCHEMA_FILE, 'utf8'), expectedEditorSchemaText(), 'run: node out/test/unit/specs/editorSchemaFile.js --write');
    const manifest = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { contributes: { jsonValidation: { url: string }[]; yamlValidation: { url: string }[] } };
    for (const entry of [...manifest.contributes.jsonValidation, ...manifest.contributes.yamlValidation]) assert.equal(entry.url, './schemas/compute-spec.editor.schema.json');
  });

  it('has no "required" and no closed objects (ours place those on the field, with the hint), and keeps every property', () => {
    const source = keywords(sourceSchema());
    const editor = keywords(editorSchema(sourceSchema()));
    assert.ok(source.has('required') && source.has('additionalProperties:false'), 'the source schema has both');
    assert.ok(!editor.has('required') && !editor.has('additionalProperties:false'));
    assert.ok(editor.has('properties') && editor.has('description') && editor.has('enum'), 'completion and hover keep what they read');
    const unit = (editorSchema(sourceSchema()) as { definitions: { memoryMi: Record<string, unknown> } }).definitions.memoryMi;
    assert.equal(unit.type, undefined, 'a unit field has no type for the editor: ours says the value in Mi');
    assert.equal(unit['x-unit'], 'Mi');
  });
});
