// The HTTP layer shared by the compute and model clients.
export { assertSecureUrl, isLoopbackHost, joinUrl } from './url';
export {
  defaultRetryPolicy,
  isRetryableStatus,
  modelRetryPolicy,
  parseRetryAfter,
  retryDelayMs,
  retryPolicyFrom,
  sleep,
  withRetries,
  type AttemptResult,
  type RetryOptions,
  type RetryPolicy,
} from './retry';
export {
  firstHeader,
  httpRequest,
  toTransportError,
  type FailureContext,
  type HttpRequest,
  type HttpResponse,
  type ResponseBody,
} from './transport';
