// The Sign Request document (src/vscode/requests/renderSignRequest.ts) says why task detail is
// signed as GET when the catalog and the picker list the spec's POST.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PreparedRequest } from '../../../src/core/compute/api';
import { methodNote, renderSignRequest } from '../../../src/vscode/requests/renderSignRequest';

const prepared: PreparedRequest = {
  method: 'GET',
  url: 'http://127.0.0.1:1/api/deployment/task/detail?task_id=7',
  pathWithQuery: '/api/deployment/task/detail?task_id=7',
  displayHeaders: {},
  body: '',
  encrypted: false,
  mode: 'token',
  version: '1.0.0',
  timestamp: '1700000000000',
  curl: "curl --globoff 'http://127.0.0.1:1/api/deployment/task/detail?task_id=7'",
};

describe('Sign Request: task detail method', () => {
  it('explains a GET signed for the POST the catalog lists', () => {
    const note = methodNote('task.detail', 'POST', 'GET');
    assert.match(note ?? '', /refused it and answers only GET \?task_id=, so GET is signed/);
    const document = renderSignRequest({
      title: 'Task detail',
      profile: { id: 'p', label: 'P', environment: 'dev', mode: 'token', computeBaseUrl: '', modelApiBaseUrl: '', consoleUrl: '' },
      prepared,
      skew: { ok: false, error: 'not measured' },
      generatedAt: new Date(0),
      ...(note ? { note } : {}),
    });
    assert.ok(document.includes(`> ${note}`), 'the document does not carry the note');
  });

  it('explains the POST before the platform refused it, and says nothing for other operations', () => {
    assert.match(methodNote('task.detail', 'POST', 'POST') ?? '', /after the first refusal it signs GET/);
    assert.equal(methodNote('task.list', 'GET', 'GET'), undefined);
    assert.equal(methodNote(undefined, undefined, 'POST'), undefined);
  });
});
