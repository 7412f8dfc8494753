// The Jobs view inside a real VS Code on an account with 2,000 ended jobs (issue 17's economy for
// jobs): Refresh reads the moving jobs and one page of the recent ended ones — never the account's whole
// history — and the view shows those recent ended jobs, not the old ones. Requests are counted at the
// sandbox (its request log), never timed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { Commands } from '../../../src/vscode/commandIds';
import { RECENT_ENDED } from '../../../src/core/jobs/jobState';
import type { RecordedRequest } from '../../sandbox/types';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { sandboxRequests, seedEndedJobs } from '../sandboxInfo';

const JOB_LIST_PATH = '/api/task/job/search';

/** The requests logged after `mark` (the log is newest first). */
function since(log: readonly RecordedRequest[], mark: RecordedRequest | undefined): RecordedRequest[] {
  const index = mark === undefined ? log.length : log.findIndex((request) => request.path === mark.path && request.headers.timestamp === mark.headers.timestamp && request.body === mark.body);
  assert.ok(index >= 0, 'more than 200 requests since the mark: the log lost it');
  return log.slice(0, index);
}

describe('jobs: the Jobs view on an account with 2,000 ended jobs', () => {
  let api: ExtensionApi;
  let seeded: number[] = [];

  before(async function () {
    this.timeout(180_000);
    await computeWithSandbox();
    api = await extensionApi();
    seeded = await seedEndedJobs(2000);
  });

  it('Refresh reads the moving jobs and one page of recent ended jobs; the view shows the recent ones only', async function () {
    this.timeout(180_000);
    const [mark] = await sandboxRequests();
    await vscode.commands.executeCommand(Commands.jobsRefresh);
    const lists = since(await sandboxRequests(), mark)
      .filter((request) => request.path.startsWith(JOB_LIST_PATH))
      .map((request) => new URL(request.path, 'http://sandbox').searchParams);
    // Reading every job, as before, was 21 pages of 100 for this account.
    assert.ok(lists.length > 0, 'Refresh lists jobs');
    assert.deepEqual(
      lists.filter((query) => query.get('status') === null).map(String),
      [],
      'every job list asks for statuses (never the whole history)',
    );
    const ended = lists.filter((query) => query.get('status') === 'Paused,End');
    assert.ok(ended.length >= 1, 'a refresh is a look: one page of recent ended jobs');
    assert.deepEqual(
      ended.filter((query) => query.get('page') !== '1').map(String),
      [],
      'only the first page of ended jobs',
    );

    const rows = api.jobs.snapshot();
    const shown = new Set(rows.map((row) => row.id));
    const seededShown = seeded.filter((id) => shown.has(id));
    assert.ok(seededShown.length > 0 && seededShown.length <= RECENT_ENDED, `${seededShown.length} of the seeded ended jobs shown`);
    assert.ok(shown.has(seeded[seeded.length - 1] ?? -1), 'the newest ended job is shown');
    assert.ok(!shown.has(seeded[0] ?? -1), 'the oldest is not');
  });
});
