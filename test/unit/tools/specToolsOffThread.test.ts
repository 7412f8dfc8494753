// The spec agent tools check a file off the host's thread where the host can (issue 26: the extension host
// never waits on untrusted input): a file the worker finds invalid is answered from the worker's findings and
// never parsed on the host; only a valid file is parsed here again. Without the port (the MCP server) the
// tools validate as before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { confinedSpecFiles } from '../../../src/core/specs/fileAccess';
import { ENGLISH } from '../../../src/core/specs/messages';
import type { SpecFileAccess } from '../../../src/core/tools/ports';
import { WorkerValidator } from '../../../src/core/specs/workerValidator';
import { findTool, type ToolContext } from '../../../src/core/tools/index';
import { runTool } from '../../../src/core/tools/run';

const VALID = { kind: 'task', name: 'ok', nodes: 1, resource: { gpu: '4090', gpuCount: 1, region: 'beijing-jxq-p1' }, services: [{ name: 'web', image: 'nginx:1', ports: [80] }] };

describe('spec agent tools: the file is checked off the host thread', () => {
  let folder: string;
  const validator = new WorkerValidator(path.resolve(__dirname, '..', '..', '..', 'src', 'core', 'specs', 'validationWorker.js'));
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'spec-offthread-'));
    writeFileSync(path.join(folder, 'valid.task.json'), JSON.stringify(VALID));
    // 20,000 unknown keys under the size cap: seconds of work for a validator on the host's thread.
    const hostile = { ...VALID, ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 0])) };
    writeFileSync(path.join(folder, 'hostile.task.json'), JSON.stringify(hostile));
  });
  after(() => {
    validator.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  const context = (checkOffThread?: SpecFileAccess['checkOffThread']): ToolContext => ({
    client: { call: async () => assert.fail('nothing is sent for validation') } as unknown as ComputeClient,
    profile: { label: 'Main', environment: 'dev' },
    specFiles: confinedSpecFiles([folder], { size: async (file) => statSync(file).size, read: async (file) => readFileSync(file) }, async () => undefined, true, checkOffThread),
  });

  it('an invalid answer from the worker is the tool\'s answer: the host never parses the file', async () => {
    const asked: string[] = [];
    // A worker that finds a problem in a file the host would find valid: its words reach the result only when
    // the tool took them and did not validate again on the host.
    const check: SpecFileAccess['checkOffThread'] = async (text) => {
      asked.push(text);
      return { valid: false, diagnostics: [{ severity: 'error', message: 'found by the worker', path: 'name', start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }] };
    };
    const result = await runTool(findTool('compute_plan_spec')!, { path: 'valid.task.json' }, context(check));
    assert.equal(asked.length, 1, 'the worker was asked once');
    assert.equal(asked[0], JSON.stringify(VALID));
    assert.match(result.text, /line 3: error: found by the worker/);
  });

  it('a hostile file is refused with the real worker\'s findings, in English', async () => {
    const result = await runTool(findTool('compute_validate_spec')!, { path: 'hostile.task.json' }, context((text, format) => validator.validate(text, format, ENGLISH)));
    assert.match(result.text, /not valid[\s\S]*holds more than 1000 entries/);
    assert.ok(result.text.split('\n').length < 20, 'the findings are bounded, not one per key');
  });

  it('a file the worker finds valid is planned as before', async () => {
    let asked = 0;
    const check: SpecFileAccess['checkOffThread'] = async (text, format) => {
      asked++;
      return validator.validate(text, format, ENGLISH);
    };
    const calls: string[] = [];
    const ctx = context(check);
    ctx.client = { call: async (operation: string) => { calls.push(operation); throw new Error('the platform is not reachable in this test'); } } as unknown as ComputeClient;
    const result = await runTool(findTool('compute_validate_spec')!, { path: 'valid.task.json' }, ctx);
    assert.equal(asked, 1);
    assert.ok(calls.length > 0, `the valid file went on to the platform checks: ${result.text}`);
  });
});
