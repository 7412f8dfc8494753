// Entry for the bundled-SFTP check (test/contract/nas-bundle.test.ts): the pieces the extension uses to
// reach a volume, bundled with the extension's own esbuild options.
export { createComputeClient } from '../../src/core/compute/client';
export { NasSessions } from '../../src/core/nas';
export { VolumeService } from '../../src/core/nas/volumeService';
