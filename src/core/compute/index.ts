// The compute core's entry point: the client factory and the key, signing and encryption helpers
// the VS Code layer uses directly (key import and generation, the Sign Request command).
export * from './api';
export { createComputeClient, ComputeClientImpl } from './client';
export { ComputeApiError, AUTH_FAILURE_CODES, isAuthFailureCode } from './errors';
export {
  clearKeyCache,
  generateKeyPair,
  keyFingerprint,
  parsePlatformPublicKey,
  parsePrivateKey,
  MINIMUM_KEY_BITS,
  RECOMMENDED_KEY_BITS,
  type GeneratedKeyPair,
  type ParsedPrivateKey,
  type ParsedPublicKey,
  type PrivateKeyEncoding,
  type PublicKeyEncoding,
} from './keys';
export { keyFileText } from './keyInput';
export { sign, stringToSign, verify, type StringToSignFields } from './signing';
export { compactJson, encryptBody, encryptBodyAsync, segmentBytes, SEGMENT_BYTES_2048 } from './encryption';
export { CLOCK_WINDOW_MS, RequestClock, isThirteenDigitTimestamp, skewFromDateHeader } from './clock';
export { OPERATIONS, OPERATION_CATALOG, effectOf, encodeQuery, encodeQueryComponent, operationSpec } from './operations';
export { tryParseEnvelope, type Envelope } from './envelope';
export { hexDump } from '../requests/display';
export type { BuiltRequest } from './request';
export {
  ACTIVE_TASK_STATUSES,
  DEFAULT_LIST_CAP,
  LIST_PAGE_SIZE,
  STORAGE_LIST_STATUSES,
  TASK_FILTER_STATUSES,
  TASK_LIST_TYPE,
  listAll,
  listNodes,
  listStorage,
  listTasks,
  taskPage,
  type Listed,
  type TaskQuery,
} from '../tasks/listing';
export { TaskPager, type TaskPageFetcher } from '../tasks/taskPager';
export { filterWords, matchesTaskFilter, taskSearchText } from '../tasks/taskFilter';
export { TIMESTAMP_SLOTS, WHOLE_CLOCK, claimTimestampSlot, type TimestampPartition } from './timestampSlots';
