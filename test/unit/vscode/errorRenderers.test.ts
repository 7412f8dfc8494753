// The one wording path for errors (docs/localization.md, "Errors"): errorText words an error inside a
// sentence from the one classification, a Refusal goes through describeError shown as it is with the
// action table's buttons. Checked in the English display language; errorRenderersZh.test.ts in zh-cn.
import '../helpers/englishL10n';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ComputeApiError } from '../../../src/core/compute/errors';
import type { LikelyCause } from '../../../src/core/compute/api';
import { ConfigError, coreText } from '../../../src/core/errors';
import { describeError } from '../../../src/vscode/errors/describeError';
import { errorText } from '../../../src/vscode/errors/errorText';
import { Refusal } from '../../../src/vscode/errors/refusal';

const unknownCause = { kind: 'unknown', detail: 'nothing local explains it' } as LikelyCause;

describe('errorText: an error inside a sentence, worded from the classification', () => {
  it("says a core error's message and hint from its keys", () => {
    const error = new ConfigError(coreText('key.empty', coreText('role.private')), coreText('key.empty.hint.private'));
    assert.equal(errorText(error), `${error.message} ${error.hint}`);
  });

  it("words a platform refusal instead of the client's English log message", () => {
    const error = new ComputeApiError('C001', 'no such task', 'task.detail', unknownCause, 200, 'Task detail');
    const text = errorText(error);
    assert.equal(text, 'the platform answered C001 "no such task".');
    assert.ok(!text.includes('Task detail failed'), text);
  });

  it('says a cancellation as such, and any other value as its text', () => {
    const aborted = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    assert.equal(errorText(aborted), 'Request cancelled');
    assert.equal(errorText('plain'), 'plain');
  });
});

describe('Refusal: a worded "not done" through the one reporter', () => {
  it('is shown as it is, with its severity and the action table\'s buttons, no "failed" frame', () => {
    const report = describeError(new Refusal('Fix the problems in a.task.json first; nothing was sent.', [{ kind: 'createProfile' }], 'warning'), 'Deploy the spec file');
    assert.ok(report);
    assert.equal(report.message, 'Fix the problems in a.task.json first; nothing was sent.');
    assert.equal(report.severity, 'warning');
    assert.deepEqual(report.actions, [{ kind: 'createProfile' }]);
    assert.equal(report.summary, 'Fix the problems in a.task.json first; nothing was sent.');
  });

  it('defaults to an error without buttons', () => {
    const report = describeError(new Refusal('Nothing was sent.'), 'Spec file');
    assert.equal(report?.severity, 'error');
    assert.deepEqual(report?.actions, []);
  });
});
