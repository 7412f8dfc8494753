// The failure of a compute call that reached the platform and got an envelope with a failure code.

import { ComputeToolkitError } from '../errors';
import type { ComputeApiErrorShape, LikelyCause, OperationId } from './api';

/**
 * Codes treated as credential/signature problems. The platform does not document what each code
 * means (docs/platform.md); third-party clients treat C001–C007 and A003/C003 as authentication failures.
 */
export const AUTH_FAILURE_CODES: ReadonlySet<string> = new Set([
  'C001', 'C002', 'C003', 'C004', 'C005', 'C006', 'C007', 'A003',
]);

export function isAuthFailureCode(code: string): boolean {
  return AUTH_FAILURE_CODES.has(code);
}

export class ComputeApiError extends ComputeToolkitError implements ComputeApiErrorShape {
  readonly kind: 'api' | 'auth';

  constructor(
    readonly code: string,
    readonly serverMessage: string,
    readonly operation: OperationId | 'raw',
    readonly likelyCause: LikelyCause,
    /** HTTP status the envelope came with (usually 200). */
    readonly httpStatus: number,
    operationTitle: string,
  ) {
    super(`${operationTitle} failed: ${code}${serverMessage ? ` ${serverMessage}` : ''}`);
    this.kind = isAuthFailureCode(code) ? 'auth' : 'api';
  }
}
