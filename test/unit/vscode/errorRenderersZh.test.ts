// In a 简体中文 window an error inside a tree row, a terminal line or a validation message reads in
// Chinese: errorText looks the core's keys and the classification's sentences up in the one bundle
// (before, these surfaces showed the error's English message).
import '../helpers/chineseL10n';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ComputeApiError } from '../../../src/core/compute/errors';
import type { LikelyCause } from '../../../src/core/compute/api';
import { ConfigError, coreText } from '../../../src/core/errors';
import { NasConnectionError } from '../../../src/core/nas/errors';
import { errorText } from '../../../src/vscode/errors/errorText';

const han = /\p{Script=Han}/u;

describe('errorText in zh-cn', () => {
  it("words a core error's keys (nested ones too) in Chinese, never its English message", () => {
    const error = new ConfigError(coreText('key.empty', coreText('role.private')), coreText('key.empty.hint.private'));
    const text = errorText(error);
    assert.match(text, han);
    assert.ok(!text.includes(error.message) && !/client private key|Paste the/i.test(text), text);
  });

  it('words a failure that is not bad input from its keys', () => {
    const error = new NasConnectionError(coreText('nas.sessionPending', 7));
    const text = errorText(error);
    assert.match(text, han);
    assert.ok(text.includes('7') && !text.includes('provisioned'), text);
  });

  it("words a platform refusal around the server's own text", () => {
    const error = new ComputeApiError('C001', 'no such task', 'task.detail', { kind: 'unknown', detail: '' } as LikelyCause, 200, 'Task detail');
    const text = errorText(error);
    assert.match(text, han);
    assert.ok(text.includes('C001') && text.includes('no such task') && !text.includes('failed'), text);
  });

  it('says a cancellation in Chinese', () => {
    assert.match(errorText(Object.assign(new Error('aborted'), { name: 'AbortError' })), han);
  });
});
