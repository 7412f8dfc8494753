// Paging through platform lists (listAll, TaskPager) and the Tasks view's filter, against a fake
// paged source whose rows can move between reads, with counts that lie, and with a cap.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Paged, TaskSummary } from '../../../src/core/compute/api';
import { checkPage, listAll, type PageFetcher } from '../../../src/core/tasks/listing';
import { filterWords, matchesTaskFilter } from '../../../src/core/tasks/taskFilter';
import { TaskPager } from '../../../src/core/tasks/taskPager';
import { ProtocolError } from '../../../src/core/errors';

/** A paged source over `rows`, recording the pages asked for. */
function source<T>(rows: () => readonly T[], options: { count?: (total: number) => number } = {}): PageFetcher<T> & { asked: number[] } {
  const asked: number[] = [];
  const fetch = async (page: number, pageSize: number): Promise<Paged<T>> => {
    asked.push(page);
    const all = rows();
    return { count: options.count ? options.count(all.length) : all.length, results: all.slice((page - 1) * pageSize, page * pageSize) };
  };
  return Object.assign(fetch, { asked });
}

const range = (n: number): number[] => Array.from({ length: n }, (_, index) => index + 1);

function task(id: number, overrides: Partial<TaskSummary> = {}): TaskSummary {
  return {
    task_id: id,
    task_name: `task-${id}`,
    status: 'End',
    points: 1,
    runing_points: 0,
    billing_value: 0,
    forecast_value: 0,
    create_time: '2026-01-01T00:00:00+08:00',
    resources: [],
    services: [],
    ...overrides,
  };
}

describe('listAll', () => {
  it('reads every page until the count is reached, one request per page', async () => {
    const fetch = source(() => range(250));
    const listed = await listAll(fetch, { pageSize: 100 });
    assert.deepEqual(listed.items, range(250));
    assert.equal(listed.count, 250);
    assert.equal(listed.truncated, false);
    assert.deepEqual(fetch.asked, [1, 2, 3]);
    assert.equal(listed.pages, 3);
  });

  it('an exact multiple of the page size needs no extra request', async () => {
    const fetch = source(() => range(200));
    assert.equal((await listAll(fetch, { pageSize: 100 })).items.length, 200);
    assert.deepEqual(fetch.asked, [1, 2]);
  });

  it('stops at a short page even when the count claims more', async () => {
    const fetch = source(() => range(30), { count: () => 1_000_000 });
    const listed = await listAll(fetch, { pageSize: 10 });
    assert.equal(listed.items.length, 30);
    assert.deepEqual(fetch.asked, [1, 2, 3, 4]);
  });

  it('stops at the cap and says so', async () => {
    const fetch = source(() => range(1000));
    const listed = await listAll(fetch, { pageSize: 100, cap: 250 });
    assert.equal(listed.items.length, 250);
    assert.equal(listed.truncated, true);
    assert.equal(listed.count, 1000);
    assert.deepEqual(fetch.asked, [1, 2, 3]);
    const exact = await listAll(source(() => range(300)), { pageSize: 100, cap: 300 });
    assert.equal(exact.truncated, false, 'a cap that holds everything is not a truncation');
  });

  it('drops a row seen twice when rows move down between pages', async () => {
    let rows = range(20);
    const fetch = source(() => rows);
    const listed = await listAll(
      async (page, size) => {
        const result = await fetch(page, size);
        if (page === 1) rows = [0, ...rows]; // a new row on top pushes row 10 onto page 2
        return result;
      },
      { pageSize: 10, key: (row) => row },
    );
    assert.equal(new Set(listed.items).size, listed.items.length, 'no duplicates');
    assert.deepEqual([...listed.items].sort((a, b) => a - b), range(20));
  });

  it('a server repeating one full page under a huge count ends at the cap in reads, not in new rows', async () => {
    let asked = 0;
    const repeating: PageFetcher<number> = async () => {
      asked += 1;
      return { count: 1e9, results: range(100) };
    };
    const listed = await listAll(repeating, { pageSize: 100, cap: 1_000, key: (row) => row });
    assert.deepEqual(listed.items, range(100), 'each row once');
    assert.equal(listed.truncated, true, 'stopped with rows the server claims are left');
    assert.equal(asked, 10, 'cap / page size requests, never one per page of the claimed count');
  });

  it('rejects a page without a results list or with a count that is not a whole number', () => {
    assert.throws(() => checkPage(null, 'task.list'), ProtocolError);
    assert.throws(() => checkPage({ count: 3, results: 'x' }, 'task.list'), /task\.list: .*data\.results/);
    assert.throws(() => checkPage({ count: -1, results: [] }, 'node.list'), /node\.list: .*data\.count/);
    assert.throws(() => checkPage({ count: '3', results: [] }, 'storage.list'), ProtocolError);
    assert.deepEqual(checkPage({ count: 0, results: [] }, 'task.list'), { count: 0, results: [] });
  });
});

describe('TaskPager', () => {
  const tasks = (n: number): TaskSummary[] => range(n).map((id) => task(id));

  it('first page from a refresh, then one page per loadMore, until hasMore is false', async () => {
    const rows = tasks(120);
    const fetch = source(() => rows);
    const pager = new TaskPager(fetch, 50);
    pager.applyFirstPage(await fetch(1, 50));
    assert.equal(pager.items.length, 50);
    assert.equal(pager.count, 120);
    assert.equal(pager.hasMore, true);
    await pager.loadMore();
    await pager.loadMore();
    assert.deepEqual(pager.items.map((row) => row.task_id), range(120));
    assert.equal(pager.hasMore, false);
    assert.deepEqual(fetch.asked, [1, 2, 3]);
  });

  it('two loadMore calls at once read one page', async () => {
    const fetch = source(() => tasks(200));
    const pager = new TaskPager(fetch, 50);
    await Promise.all([pager.loadMore(), pager.loadMore()]);
    assert.deepEqual(fetch.asked, [1]);
  });

  it('a refresh keeps rows read further down and puts new ones on top, without duplicates', async () => {
    let rows = tasks(100);
    const fetch = source(() => rows);
    const pager = new TaskPager(fetch, 40);
    await pager.loadMore();
    await pager.loadMore();
    rows = [task(1000), ...rows];
    pager.applyFirstPage(await fetch(1, 40));
    assert.equal(pager.items[0]?.task_id, 1000);
    assert.equal(pager.items.length, 81);
    assert.equal(pager.count, 101);
    await pager.loadMore();
    assert.equal(new Set(pager.items.map((row) => row.task_id)).size, pager.items.length);
  });

  it('loadAll reads every page up to the cap; a failure is kept and thrown', async () => {
    const fetch = source(() => tasks(130));
    const pager = new TaskPager(fetch, 50);
    await pager.loadAll(undefined, 100);
    assert.equal(pager.items.length, 100);
    await pager.loadAll();
    assert.equal(pager.items.length, 130);

    const failing = new TaskPager(async () => Promise.reject(new Error('HTTP 503')), 50);
    await assert.rejects(failing.loadMore(), /HTTP 503/);
    assert.match(String(failing.error), /HTTP 503/);
  });

  it('a read that finishes after reset() writes nothing', async () => {
    let release: (page: Paged<TaskSummary>) => void = () => undefined;
    const pager = new TaskPager(() => new Promise((resolve) => (release = resolve)), 50);
    const reading = pager.loadMore();
    pager.reset();
    release({ count: 1, results: [task(1)] });
    await reading;
    assert.equal(pager.items.length, 0);
    assert.equal(pager.count, undefined);
  });
});

describe('task filter', () => {
  const gpuTask = task(1229831, {
    task_name: 'Qwen Serving',
    status: 'Running',
    resources: [
      {
        resource: { device_name: 'RTX 4090 x 2', region: 'beijing-jxq-p1', gpu_name: 'RTX 4090', gpu_count: 2, gpu_memory: 24560, memory: 1, cpu_cores: 1 },
        region_name: '北京一区',
        mark: 'm',
      },
    ],
  });

  it('every word must match the name, id, status or GPU (case-insensitive)', () => {
    assert.equal(matchesTaskFilter(gpuTask, filterWords('qwen')), true);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('1229831')), true);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('  4090   RUNNING ')), true);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('北京')), true);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('4090 paused')), false);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('h20')), false);
    assert.equal(matchesTaskFilter(gpuTask, filterWords('')), true, 'no words: everything matches');
  });

  it('filter text is data, not a pattern', () => {
    assert.equal(matchesTaskFilter(task(1, { task_name: 'a.*b' }), filterWords('a.*b')), true);
    assert.equal(matchesTaskFilter(task(1, { task_name: 'axxb' }), filterWords('a.*b')), false);
  });
});
