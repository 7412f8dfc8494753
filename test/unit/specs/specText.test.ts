// Spec files as text (src/core/specs/specText.ts): new files in either format read back as the spec, and
// Deploy's ids are written into an existing file in place — its comments, order and line endings kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { specFileText, withDeployedIds } from '../../../src/core/specs/specText';
import { validateSpecText } from '../../../src/core/specs/validate';

const spec = {
  kind: 'task',
  name: 'demo',
  nodes: 1,
  resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' },
  services: [{ name: 'web', image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688] }],
};

describe('spec text', () => {
  it('a new file in JSON or YAML validates and reads back as the spec', () => {
    for (const format of ['json', 'yaml'] as const) {
      const text = specFileText(spec, format);
      assert.deepEqual(format === 'json' ? JSON.parse(text) : parseYaml(text), spec, format);
      const validation = validateSpecText(text, format);
      assert.deepEqual(validation.diagnostics, [], format);
    }
    assert.ok(specFileText(spec, 'json').endsWith('}\n'), 'the JSON file ends with a newline');
  });

  it('writes profile and taskId into a JSON file in place, keeping its comments and CRLF line endings', () => {
    const text = '{\r\n  // deployed by CI\r\n  "kind": "task",\r\n  "name": "demo"\r\n}\r\n';
    const next = withDeployedIds(text, 'json', { taskId: 42, profile: 'prod' }, '\r\n');
    assert.ok(next.includes('// deployed by CI'), next);
    assert.deepEqual(parseJsonc(next), { kind: 'task', name: 'demo', profile: 'prod', taskId: 42 });
    assert.equal(next.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF was introduced');
    assert.ok(next.indexOf('"kind"') < next.indexOf('"taskId"'), 'existing fields keep their place');
  });

  it('writes profile and taskId into a YAML file, keeping its comments; a second write replaces them', () => {
    const text = '# deployed by CI\nkind: task # the kind\nname: demo\n';
    const once = withDeployedIds(text, 'yaml', { taskId: 42, profile: 'prod' }, '\n');
    assert.ok(once.startsWith('# deployed by CI\n') && once.includes('# the kind'), once);
    assert.deepEqual(parseYaml(once), { kind: 'task', name: 'demo', profile: 'prod', taskId: 42 });
    const twice = withDeployedIds(once, 'yaml', { taskId: 43, profile: 'prod' }, '\n');
    assert.deepEqual(parseYaml(twice), { kind: 'task', name: 'demo', profile: 'prod', taskId: 43 });
  });
});
