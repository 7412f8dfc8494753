// The spec tools' inputs (../specTools.ts): validate, plan and apply all take the file's path (docs/shapes.md).

import { z } from 'zod';
import { nonEmptyText } from './fields';

export const specFile = z.strictObject({
  path: nonEmptyText(1024).meta({ description: 'Path of the spec file (relative to the workspace), e.g. deploy/api.task.json.', examples: ['serve.task.json'] }),
});
