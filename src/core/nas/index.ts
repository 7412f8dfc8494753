// NAS volumes, SFTP file access (on the SSH layer, core/ssh) and folder sync: the API the VS Code layer, the agent tools and the
// jobs area (Run on GPU) use. See docs/nas.md.
//
// Sync a project folder to a volume (what Run on GPU calls):
//   const sessions = new NasSessions(new VolumeService(() => computeClient));
//   const { sent, skipped, bytes } = await syncFolder(sessions, { storageId, localDir, remoteDir: '/project', signal, onProgress });

export * from './operations';
export { BYTES_PER_GIB, bytesToGiB, formatBytes, formatGiB, formatYuan, gibToBytes, knownUsedBytes, monthlyPriceYuan, parseNasTime } from './units';
export { NasConnectionError, NasFileError, S3CheckFailedError, type NasFileErrorCode } from './errors';
export { ProgressMeter, type ProgressListener, type TransferProgress } from './progress';
export { NasSessions, parseSftpUrl, type ConnectionDetails, type SessionApi, type SessionOptions } from './sessions';
export { SftpConnection, MAX_LISTING_ENTRIES, type RemoteEntry, type RemoteListing, type RemoteStat, type RemoteType, type SftpEndpoint } from './sftpConnection';
export { escapedName, isSafeEntryName, localPathUnder, SkippedNames } from './entryNames';
export { MAX_WALK_DEPTH, MAX_WALK_ENTRIES, walkRemote, type WalkedEntry, type WalkLimits, type WalkOptions } from './remoteWalk';
export { copyRemote, deleteRemote, type TreeOptions } from './remoteTree';
export { download, keepsExisting, remoteJoin, upload, uploadFiles, type ExistingFilePolicy, type TransferOptions, type TransferResult } from './transfer';
export { findOutputs, OUTPUT_LIMITS, type OutputFile, type OutputLimits, type OutputsListing } from './outputs';
export { MANIFEST_DIR, MANIFEST_FILE, syncFolder, walkIncluded, type LocalFile, type SyncOptions, type SyncResult } from './sync';
export {
  checkBodyOf,
  createChoices,
  createTransfer,
  deleteBlock,
  getVolume,
  isTransitional,
  listVolumes,
  maskKeys,
  requireMountableVolume,
  transferFraction,
  volumeMonthlyYuan,
  volumeNameProblem,
  type CreateChoice,
  type DeleteBlock,
  type NasApi,
} from './volumes';
export { isTransferMoving, listTransfers, sameTransfer, TRANSFER_STATE, type TransferListing } from './transferState';
export {
  S3_SUPPLIERS,
  bucketProblem,
  canRetryTransfer,
  canStopTransfer,
  endpointProblem,
  nasPathProblem,
  parseIgnorePatterns,
  planOf,
  prefixProblem,
  transferBody,
  transferProgressView,
  type TransferPlan,
} from './transferForm';
export { DEFAULT_TARGET_DIR, addMountToConfig, mountableVolumes, normalTargetDir, sameRegion, targetDirProblem, type NasMountConfig } from './mounts';
export { nasToolAccess } from './toolAccess';
export { writtenPaths, type WrittenPaths } from './writtenPaths';
