// The editor schema the manifest contributes (schemas/compute-spec.editor.schema.json) is derived from
// the one schema by src/core/specs/editorOverlap.ts. editorSchema.test.ts checks the file matches; after
// changing the schema run `npm run compile-tests && node out/test/unit/specs/editorSchemaFile.js --write`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { editorSchema } from '../../../src/core/specs/editorOverlap';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const EDITOR_SCHEMA_FILE = path.join(ROOT, 'schemas', 'compute-spec.editor.schema.json');

export function sourceSchema(): unknown {
  return JSON.parse(readFileSync(path.join(ROOT, 'schemas', 'compute-spec.schema.json'), 'utf8')) as unknown;
}

export function expectedEditorSchemaText(): string {
  return `${JSON.stringify(editorSchema(sourceSchema()), null, 2)}\n`;
}

if (require.main === module && process.argv.includes('--write')) writeFileSync(EDITOR_SCHEMA_FILE, expectedEditorSchemaText());
