// The spec types are generated from the one JSON Schema (docs/shapes.md): the committed file is what the
// generator writes, and a change to the schema changes the types.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SPEC_TYPES_FILE, expectedSpecTypesText, specSchema } from './specTypesFile';

describe('the spec types', () => {
  it('are the file generated from schemas/compute-spec.schema.json', () => {
    assert.equal(readFileSync(SPEC_TYPES_FILE, 'utf8'), expectedSpecTypesText(), 'run: npm run compile-tests && node out/test/unit/specs/specTypesFile.js --write');
  });

  it('follow the schema: a new field, a required one and a secret reference', () => {
    const schema = specSchema();
    const resource = schema.definitions?.['resource'];
    assert.ok(resource?.properties && resource.required);
    resource.properties['zone'] = { type: 'string', description: 'A zone.' };
    resource.required.push('zone');
    const text = expectedSpecTypesText(schema);
    assert.match(text, /\/\*\* A zone\. \*\/\n  zone: string;/);
    assert.match(text, /export type SecretRef = \{ secret: string \} \| \{ env: string \};/);
    assert.match(text, /export type EnvMap = Record<string, string \| SecretRef>;/);
    assert.match(text, /kind: 'task';/);
  });
});
