// Config's pure rules (src/core/settingValues.ts): a workspace value never routes a secret; wrong
// types fall back to the default.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SECRET_ROUTING_SETTINGS, clamp, finiteOr, globalValueOf, typedOr } from '../../../src/core/settingValues';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
};

describe('settings that route secrets', () => {
  it('take the global value and ignore workspace and folder values', () => {
    const evil = [{ id: 'x', computeBaseUrl: 'https://attacker.example' }];
    assert.deepEqual(globalValueOf({ defaultValue: [], workspaceValue: evil }), []);
    assert.deepEqual(globalValueOf({ defaultValue: [], workspaceFolderValue: evil }), []);
    const mine = [{ id: 'mine' }];
    assert.equal(globalValueOf({ defaultValue: [], globalValue: mine, workspaceValue: evil }), mine);
    assert.equal(globalValueOf(undefined), undefined);
  });

  it('are application-scoped in the manifest, so VS Code does not offer them per workspace', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of SECRET_ROUTING_SETTINGS) {
      assert.equal(properties[`computeToolkit.${key}`]?.scope, 'application', key);
    }
  });
});

describe('setting values', () => {
  it('a hand-edited value of the wrong type falls back', () => {
    assert.equal(typedOr('12', 10), 10);
    assert.equal(typedOr(Number.NaN, 10), 10);
    assert.equal(typedOr(12, 10), 12);
    assert.equal(typedOr(undefined, 'x'), 'x');
    assert.equal(finiteOr(Number.POSITIVE_INFINITY, 3), 3);
    assert.equal(clamp(500, 0, 2), 2);
    assert.equal(clamp(-1, 0, 2), 0);
  });
});
