// Batch jobs and NAS volumes are listed only by the remote-state store (issues 17 and 20): the job and
// volume list operations are named only where they are defined and where their one listing lives, and
// the volume readers are called only from the volume state definition. Fails naming the file that
// started listing jobs or volumes on its own (a second poll loop), like taskListCallers.test.ts does for tasks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const files = typeScriptFiles('src');
const text = readSources(files);

/** Files naming an operation id (quoted) outside the allowed ones. */
function namingOutside(operation: string, allowed: Record<string, string>): string[] {
  const pattern = new RegExp(`['"\`]${operation.replace('.', '\\.')}['"\`]`);
  return files.filter((file) => !(file in allowed) && pattern.test(text.get(file) ?? ''));
}

const JOB_LIST_ALLOWED: Record<string, string> = {
  'src/core/jobs/operations.ts': 'its catalog entry',
  'src/core/compute/resultShapes.ts': 'its result shape',
  'src/core/jobs/jobState.ts': 'the job state definition (the store polls through it)',
};

const VOLUME_LIST_ALLOWED: Record<string, string> = {
  'src/core/nas/operations.ts': 'its catalog entry',
  'src/core/nas/resultShapes.ts': 'its result shape',
  'src/core/nas/volumes.ts': 'the one paged read (readVolumes) and its one-volume form',
  'src/core/tools/nasTools.ts': 'the NAS agent tools declare the operation they call (the model asks; the MCP server has no store)',
  'src/core/tools/specTools.ts': 'the spec tools declare the NAS check they make (through core/specs/runner.ts)',
  'src/core/tools/jobTools.ts': 'Run Batch Job declares the one-volume mount check it makes (requireMountableVolume in core/nas/volumes.ts)',
};

const PREHEAT_LIST_ALLOWED: Record<string, string> = {
  'src/core/preheat/operations.ts': 'its catalog entry',
  'src/core/compute/resultShapes.ts': 'its result shape',
  'src/core/preheat/preheatState.ts': 'the preheat state definition (the store polls through it)',
};

/** Who may call the volume readers of core/nas/volumes.ts. */
const VOLUME_READ_ALLOWED: Record<string, string> = {
  'src/core/nas/volumes.ts': 'where they are defined',
  'src/core/nas/volumeState.ts': 'the volume state definition',
  'src/core/nas/volumeService.ts': 'VolumeService.list and get: the NAS agent tools and the spec tools’ NAS check read through them (the model asks; the editor reads the store)',
};
const VOLUME_READ_CALL = /\b(readVolumes|listVolumes|getVolume)\s*\(/;

describe('only the remote-state store lists jobs and NAS volumes', () => {
  it('names preheat.list only where it is defined and where the preheat store lists', () => {
    const offenders = namingOutside('preheat.list', PREHEAT_LIST_ALLOWED);
    assert.deepEqual(offenders, [], `preheat.list outside the store: ${offenders.join(', ')}`);
  });

  it('names job.list only where it is defined and where the job store lists', () => {
    const offenders = namingOutside('job.list', JOB_LIST_ALLOWED);
    assert.deepEqual(offenders, [], `job.list outside the store: ${offenders.join(', ')}`);
  });

  it('names nas.list only where it is defined and read', () => {
    const offenders = namingOutside('nas.list', VOLUME_LIST_ALLOWED);
    assert.deepEqual(offenders, [], `nas.list outside the store: ${offenders.join(', ')}`);
  });

  it('calls the volume readers only from the volume state definition', () => {
    const offenders = files.filter((file) => !(file in VOLUME_READ_ALLOWED) && VOLUME_READ_CALL.test(text.get(file) ?? ''));
    assert.deepEqual(offenders, [], `volume list reads outside the store: ${offenders.join(', ')}`);
  });

  it('every allowed file exists and still does what it is allowed for (no stale allowance)', () => {
    const pairs: [string, string][] = [...Object.keys(JOB_LIST_ALLOWED).map((file): [string, string] => [file, 'job.list']), ...Object.keys(VOLUME_LIST_ALLOWED).map((file): [string, string] => [file, 'nas.list'])];
    for (const [file, operation] of pairs) {
      assert.ok(text.get(file)?.includes(`'${operation}'`), `${file} no longer names ${operation}: drop it from the allowed list`);
    }
    assert.match(text.get('src/core/nas/volumeState.ts') ?? '', VOLUME_READ_CALL, 'the volume state reads through readVolumes');
  });

  it('the checks themselves catch a file that lists jobs or volumes', () => {
    assert.match(`await client.call('job.list', { page: 1 });`, /['"`]job\.list['"`]/);
    assert.match(`await client.call("nas.list", {});`, /['"`]nas\.list['"`]/);
    assert.match(`const volumes = await nasCore().listVolumes(client);`, VOLUME_READ_CALL);
    assert.doesNotMatch(`export { getVolume, listVolumes } from './volumes';`, VOLUME_READ_CALL);
  });
});
