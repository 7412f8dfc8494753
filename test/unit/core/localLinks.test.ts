// A symbolic link committed to a workspace is not a way out of it (issue 26, "links are never followed"):
// the agent tools' local file (NAS upload), spec files read for the tools and Run on GPU's synced folder
// are checked on disk, links resolved, not only by name.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realPathInside } from '../../../src/core/localLinks';
import { nasToolAccess } from '../../../src/core/nas/toolAccess';
import type { NasSessions } from '../../../src/core/nas/sessions';
import { confinedSpecFiles } from '../../../src/core/specs/fileAccess';

describe('local links leading out of the workspace', () => {
  let base: string;
  let workspace: string;
  let outside: string;
  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'local-links-'));
    workspace = path.join(base, 'repo');
    outside = path.join(base, 'home');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    mkdirSync(path.join(outside, '.ssh'), { recursive: true });
    writeFileSync(path.join(outside, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    writeFileSync(path.join(outside, 'api.task.json'), '{}');
    writeFileSync(path.join(workspace, 'src', 'train.py'), 'print(1)');
    symlinkSync(outside, path.join(workspace, 'home'));
    symlinkSync(path.join(outside, '.ssh', 'id_rsa'), path.join(workspace, 'data.bin'));
    symlinkSync(path.join(outside, 'api.task.json'), path.join(workspace, 'api.task.json'));
    symlinkSync(path.join(workspace, 'src', 'train.py'), path.join(workspace, 'inside-link.py'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('realPathInside: the folder itself and what is inside pass; a link out, or through a linked folder, does not', async () => {
    assert.equal(await realPathInside([workspace], workspace), workspace);
    assert.equal(await realPathInside([workspace], path.join(workspace, 'src')), path.join(workspace, 'src'));
    assert.equal(await realPathInside([workspace], path.join(workspace, 'inside-link.py')), path.join(workspace, 'src', 'train.py'));
    assert.equal(await realPathInside([workspace], path.join(workspace, 'home')), undefined);
    assert.equal(await realPathInside([workspace], path.join(workspace, 'home', '.ssh')), undefined);
    assert.equal(await realPathInside([workspace], path.join(workspace, 'data.bin')), undefined);
    await assert.rejects(realPathInside([workspace], path.join(workspace, 'missing')));
  });

  it('the NAS upload tool refuses a workspace file that links out of the folder', async () => {
    const access = nasToolAccess(() => ({}) as unknown as NasSessions, [workspace]);
    await assert.rejects(access.localFile('data.bin'), /outside the open folder/);
    await assert.rejects(access.localFile('home/.ssh/id_rsa'), /outside the open folder/);
    assert.equal((await access.localFile('src/train.py')).absolutePath, path.join(workspace, 'src', 'train.py'));
  });

  it('the spec tools refuse a spec file that links out of the folder', async () => {
    const files = confinedSpecFiles(
      [workspace],
      { size: async (file) => statSync(file).size, read: async (file) => readFileSync(file), insideOnDisk: async (file) => (await realPathInside([workspace], file)) !== undefined },
      async () => undefined,
      true,
    );
    await assert.rejects(files.read('api.task.json'), /outside the open folder/);
  });
});
