// Errors of file work on a volume. `code` says what the editor layer maps it to (FileSystemError and
// the messages); messages name the volume path, never a credential.

import { ComputeToolkitError, ConfigError, coreText, type CoreText } from '../errors';

export type NasFileErrorCode =
  | 'not-found'
  | 'exists'
  | 'not-a-directory'
  | 'is-a-directory'
  | 'no-permission'
  | 'volume-full'
  | 'failed'
  // A name from the volume that would put a file outside the chosen folder (core/nas/entryNames.ts).
  | 'outside-destination'
  // A walk of a volume folder deeper or longer than its bounds (core/nas/remoteWalk.ts).
  | 'too-deep'
  | 'too-many';

/** An SFTP operation the server refused. */
export class NasFileError extends ComputeToolkitError {
  readonly kind = 'storage' as const;
  constructor(
    readonly code: NasFileErrorCode,
    message: string | CoreText,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The platform's S3 connection check answered `pass: false`: nothing was created. */
export class S3CheckFailedError extends ConfigError {
  readonly code = 's3-check-failed' as const;
  constructor(readonly serverMessage: string) {
    super(coreText('nas.s3CheckFailed', serverMessage), coreText('nas.s3CheckFailed.hint'));
  }
}

/** The volume cannot be reached over SFTP right now (session not Running, connection lost, login refused). */
export class NasConnectionError extends ComputeToolkitError {
  readonly kind = 'network' as const;
  override readonly retryable = true;
  constructor(message: string | CoreText, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** ssh2's SFTP status codes (SSH_FX_*). */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;
const FAILURE = 4;

/** Maps an ssh2 SFTP error to a NasFileError (or returns a NasConnectionError for a lost connection). */
export function fromSftpError(error: unknown, path: string, action: string): NasFileError | NasConnectionError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === NO_SUCH_FILE) return new NasFileError('not-found', `${action}: ${path} does not exist on the volume.`, path, { cause: error });
  if (code === PERMISSION_DENIED) return new NasFileError('no-permission', `${action}: permission denied for ${path}.`, path, { cause: error });
  if (code === FAILURE || typeof code === 'number') {
    if (/space|quota|full/i.test(message)) {
      return new NasFileError('volume-full', `${action}: the volume is full (no space left for ${path}). Expand the volume or free space.`, path, { cause: error });
    }
    if (/exist/i.test(message)) return new NasFileError('exists', `${action}: ${path} already exists.`, path, { cause: error });
    if (/not empty/i.test(message)) return new NasFileError('failed', `${action}: ${path} is a folder that is not empty.`, path, { cause: error });
    return new NasFileError('failed', `${action}: the server refused it for ${path} (${message.slice(0, 200)}).`, path, { cause: error });
  }
  return new NasConnectionError(`${action}: the connection to the volume was lost (${message.slice(0, 200)}).`, { cause: error });
}
