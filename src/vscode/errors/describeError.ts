// The one mapping from core errors to what the user sees: a message and the actions that can fix it.
// Pure (no editor calls) so the in-host tests can check the mapping without clicking notifications.

import type { LikelyCause, OperationId } from '../../core/compute/api';
import { ConfigError, ComputeToolkitError, HttpError, isAbort } from '../../core/errors';
import type { SecretKind } from '../services';
import { MissingSecretError, NoProfileError } from './missingSecretError';

export type ErrorAction =
  | { kind: 'showLogs' }
  | { kind: 'retry' }
  | { kind: 'openSignRequest'; operation?: OperationId }
  | { kind: 'configureProfile' }
  | { kind: 'createProfile' }
  | { kind: 'connectSandbox' }
  | { kind: 'setSecret'; secret: SecretKind }
  | { kind: 'showFingerprints' };

export interface ErrorReport {
  severity: 'error' | 'warning';
  message: string;
  actions: ErrorAction[];
  /** Set for compute API failures: what local evidence says went wrong. */
  likelyCause?: LikelyCause;
}

/** The fields a compute API failure carries (api.ts ComputeApiErrorShape), detected structurally. */
interface ApiFailure {
  kind: 'api' | 'auth';
  code: string;
  serverMessage: string;
  operation: OperationId | 'raw';
  likelyCause: LikelyCause;
}

export function isApiFailure(error: unknown): error is ComputeToolkitError & ApiFailure {
  if (!(error instanceof ComputeToolkitError) || (error.kind !== 'api' && error.kind !== 'auth')) return false;
  const cause = (error as { likelyCause?: unknown }).likelyCause;
  return typeof cause === 'object' && cause !== null && typeof (cause as { kind?: unknown }).kind === 'string';
}

const SHOW_LOGS: ErrorAction = { kind: 'showLogs' };

/**
 * Describes `error` for a notification, or returns undefined when nothing should be shown (the user
 * cancelled). `context` names what was being done, e.g. "Load tasks". `canRetry`: the caller can repeat it.
 */
export function describeError(error: unknown, context: string, canRetry = false): ErrorReport | undefined {
  if (isAbort(error)) return undefined;
  const retry: ErrorAction[] = canRetry ? [{ kind: 'retry' }] : [];

  if (isApiFailure(error)) return describeApiFailure(error, context);

  if (error instanceof NoProfileError) {
    return {
      severity: 'warning',
      message: `${context}: ${error.message} ${error.hint ?? ''}`.trim(),
      actions: [{ kind: 'connectSandbox' }, { kind: 'createProfile' }],
    };
  }
  if (error instanceof MissingSecretError) {
    return {
      severity: 'warning',
      message: `${context}: ${error.message}`,
      actions: [{ kind: 'setSecret', secret: error.secret }, { kind: 'configureProfile' }],
    };
  }
  if (error instanceof ConfigError) {
    return {
      severity: 'error',
      message: `${context}: ${error.message}${error.hint ? ` ${error.hint}` : ''}`,
      actions: [{ kind: 'configureProfile' }, SHOW_LOGS],
    };
  }
  if (error instanceof HttpError) {
    const unauthorized = error.status === 401 || error.status === 403;
    return {
      severity: 'error',
      message: `${context} failed: ${error.message}`,
      actions: [...(error.retryable ? retry : []), ...(unauthorized ? [{ kind: 'configureProfile' } as const] : []), SHOW_LOGS],
    };
  }
  if (error instanceof ComputeToolkitError) {
    // timeout, network, protocol (and any subclass added later): the message already says what happened.
    return {
      severity: 'error',
      message: `${context} failed: ${error.message}`,
      actions: [...(error.retryable ? retry : []), SHOW_LOGS],
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { severity: 'error', message: `${context} failed: ${text}`, actions: [SHOW_LOGS] };
}

function describeApiFailure(error: ApiFailure, context: string): ErrorReport {
  const cause = error.likelyCause;
  const operation = error.operation === 'raw' ? undefined : error.operation;
  const signRequest: ErrorAction = operation ? { kind: 'openSignRequest', operation } : { kind: 'openSignRequest' };
  const answered = `the platform answered ${error.code}${error.serverMessage ? ` "${error.serverMessage}"` : ''}`;
  const why = cause.kind === 'unknown' ? '' : ` Likely cause: ${cause.detail}`;
  const actions = ((): ErrorAction[] => {
    switch (cause.kind) {
      case 'signature-mismatch-local':
        return [signRequest, { kind: 'setSecret', secret: 'privateKey' }, SHOW_LOGS];
      case 'signature-key-not-registered':
        return [signRequest, { kind: 'showFingerprints' }, SHOW_LOGS];
      case 'clock-skew':
      case 'timestamp-format':
      case 'version-type':
        return [signRequest, SHOW_LOGS];
      case 'token':
        return [{ kind: 'setSecret', secret: 'apiToken' }, { kind: 'configureProfile' }, SHOW_LOGS];
      case 'encryption-key':
        return [{ kind: 'setSecret', secret: 'platformPublicKey' }, signRequest, SHOW_LOGS];
      case 'unknown':
        return error.kind === 'auth' ? [{ kind: 'configureProfile' }, signRequest, SHOW_LOGS] : [SHOW_LOGS];
    }
  })();
  return { severity: 'error', message: `${context} failed: ${answered}.${why}`, actions, likelyCause: cause };
}
