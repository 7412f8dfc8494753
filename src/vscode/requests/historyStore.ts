// The request history of this VS Code installation (globalState), sized by the
// `computeToolkit.request.historySize` setting, and the short outcome label an entry keeps.

import { ComputeApiError } from '../../core/compute/errors';
import { ComputeToolkitError } from '../../core/errors';
import type { Services } from '../extensionServices';
import { RequestHistory } from './requestHistory';

export function requestHistory(services: Services): RequestHistory {
  return new RequestHistory(services.state, () => services.config.requestHistorySize);
}

/** "C001", "http", "timeout"…: what failed, in a word (the response document has the rest). */
export function outcomeLabel(error: unknown): string {
  if (error instanceof ComputeApiError) return error.code;
  if (error instanceof ComputeToolkitError) return error.kind;
  return 'error';
}
