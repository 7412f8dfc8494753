// The request history of this VS Code installation (globalState), sized by the
// `computeToolkit.request.historySize` setting: the requests sent by hand, and the requests the
// extension sent by itself (requestActivity.ts), recorded from every client's exchanges.

import type { ExchangeRecord, OperationId } from '../../core/compute/api';
import { ComputeApiError } from '../../core/compute/errors';
import { operationSpec } from '../../core/compute/operations';
import { ComputeToolkitError } from '../../core/errors';
import { Commands } from '../commandIds';
import { currentOrigin } from '../../core/requests/requestOrigin';
import type { ExtensionServices as Services } from '../services';
import type { Profile } from '../services';
import { errorMessage } from '../../shared/errorMessage';
import { ACTIVITY_PER_HISTORY_ENTRY, RequestActivity, activityEntry } from './requestActivity';
import { RequestHistory } from './requestHistory';

export function requestHistory(services: Services): RequestHistory {
  return new RequestHistory(services.state, () => services.config.requestHistorySize);
}

export function requestActivity(services: Services): RequestActivity {
  return new RequestActivity(services.state, () => services.config.requestHistorySize * ACTIVITY_PER_HISTORY_ENTRY);
}

/** Commands that keep their own (replayable) history entry: their requests are not recorded twice. */
const SELF_RECORDED: ReadonlySet<string> = new Set([Commands.requestSend, Commands.requestReplay, Commands.requestHistory]);

/** Records each attempt any compute client makes, with where it came from (see requestActivity.ts). */
export function recordActivity(services: Services): (profile: Profile, exchange: ExchangeRecord) => void {
  const activity = requestActivity(services);
  return (profile, exchange) => {
    let effect;
    try {
      effect = exchange.operation === 'raw' ? undefined : operationSpec(exchange.operation as OperationId).effect;
    } catch {
      effect = undefined;
    }
    const entry = activityEntry(profile.id, exchange, currentOrigin(), effect, Date.now(), (text) => services.redactor.redact(text), SELF_RECORDED);
    if (!entry) return;
    activity.record(entry).catch((error: unknown) => services.logger.warn(`Request history: could not record a request: ${errorMessage(error)}`));
  };
}

/** "C001", "http", "timeout"…: what failed, in a word (the response document has the rest). */
export function outcomeLabel(error: unknown): string {
  if (error instanceof ComputeApiError) return error.code;
  if (error instanceof ComputeToolkitError) return error.kind;
  return 'error';
}
