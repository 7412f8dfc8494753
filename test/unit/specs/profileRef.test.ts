// Spec files name their profile by id; a label (the old form) still targets the active profile, in any of
// the display languages the sandbox profiles were labelled in (issue 27: a spec made in English was
// refused in Chinese).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { matchProfileRef } from '../../../src/core/specs/profileRef';
import { withProfileId } from '../../../src/core/specs/specText';
import { knownProfileLabels, SANDBOX_PROFILE_LABELS } from '../../../src/vscode/profiles/sandboxLabels';

const repoRoot = path.resolve(__dirname, '../../../..');
const readJson = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, string>;

const chineseSandbox = { id: 'sandbox-rsa', label: '沙盒 (RSA)' };

describe('specs: the profile a file names', () => {
  it('an id matches whatever the label reads', () => {
    assert.deepEqual(matchProfileRef('sandbox-rsa', chineseSandbox), { kind: 'id' });
    assert.deepEqual(matchProfileRef(undefined, chineseSandbox), { kind: 'any' });
  });

  it('an English sandbox label still targets the sandbox profile labelled in Chinese (and back), with the id to write', () => {
    assert.deepEqual(matchProfileRef('Sandbox (RSA)', chineseSandbox, knownProfileLabels('sandbox-rsa')), { kind: 'label', id: 'sandbox-rsa' });
    assert.deepEqual(matchProfileRef('沙盒 (RSA)', { id: 'sandbox-rsa', label: 'Sandbox (RSA)' }, knownProfileLabels('sandbox-rsa')), { kind: 'label', id: 'sandbox-rsa' });
    assert.deepEqual(matchProfileRef('Sandbox (token)', chineseSandbox, knownProfileLabels('sandbox-rsa')), { kind: 'other' }, 'the other sandbox profile is another profile');
  });

  it("a user's profile matches its own label only, never another profile's id or label", () => {
    const prod = { id: 'prod-1', label: 'Production' };
    assert.deepEqual(matchProfileRef('Production', prod, knownProfileLabels('prod-1')), { kind: 'label', id: 'prod-1' });
    assert.deepEqual(matchProfileRef('dev-1', prod, knownProfileLabels('prod-1')), { kind: 'other' });
    assert.deepEqual(matchProfileRef('Sandbox (RSA)', prod, knownProfileLabels('prod-1')), { kind: 'other' });
    assert.deepEqual(knownProfileLabels('__proto__'), []);
  });

  it('the sandbox label table holds the labels the l10n bundles give', () => {
    const english = readJson('l10n/bundle.l10n.json');
    const chinese = readJson('l10n/bundle.l10n.zh-cn.json');
    for (const [id, english0] of [['sandbox-rsa', 'Sandbox (RSA)'], ['sandbox-token', 'Sandbox (token)']] as const) {
      assert.ok(english0 in english, english0);
      assert.deepEqual(SANDBOX_PROFILE_LABELS[id], [english0, chinese[english0]]);
    }
  });

  it('moving a file to the id edits "profile" only, keeping the layout', () => {
    const json = '{\n  "kind": "task",\n  "profile": "Sandbox (RSA)",\n  "name": "a" // keep\n}\n';
    assert.equal(withProfileId(json, 'json', 'sandbox-rsa', '\n'), json.replace('"Sandbox (RSA)"', '"sandbox-rsa"'));
    const yaml = '# mine\nkind: task\nprofile: Sandbox (RSA)\nname: a\n';
    assert.equal(withProfileId(yaml, 'yaml', 'sandbox-rsa', '\n'), yaml.replace('Sandbox (RSA)', 'sandbox-rsa'));
  });
});
