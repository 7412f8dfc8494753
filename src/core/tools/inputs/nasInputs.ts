// The NAS tools' inputs (../nasTools.ts): one zod schema each (docs/shapes.md).

import { z } from 'zod';
import { READ_DEFAULT_BYTES, READ_MAX_BYTES } from '../nasLimits';
import { idField, nonEmptyText } from './fields';

const storageIdField = (): z.ZodInt => idField('The volume id (storage_id from compute_nas_list_volumes).', 1001);
const remotePath = (): z.ZodString => nonEmptyText(1024);

export const listVolumes = z.strictObject({});

export const listDirectory = z.strictObject({
  storage_id: storageIdField(),
  path: remotePath().default('/').meta({ description: 'Folder on the volume (default "/").', examples: ['/', '/data'] }),
});

export const readFile = z.strictObject({
  storage_id: storageIdField(),
  path: remotePath().meta({ description: 'Absolute path on the volume.', examples: ['/data/train.csv'] }),
  max_bytes: z.int().min(1).max(READ_MAX_BYTES).default(READ_DEFAULT_BYTES).meta({ description: 'Refuse files larger than this (bytes).' }),
});

export const uploadFile = z.strictObject({
  storage_id: storageIdField(),
  local_path: nonEmptyText(1024).meta({ description: 'File in the open folder (relative path).', examples: ['data/train.csv'] }),
  remote_path: remotePath().meta({ description: 'Target file on the volume, or a folder ending in "/".', examples: ['/data/', '/data/train.csv'] }),
  overwrite: z.boolean().default(false).meta({ description: 'Replace an existing file (default false: keep it).' }),
});
