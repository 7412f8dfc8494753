// Errors of SSH and SFTP work (a NAS volume's SFTP, a machine's SSH). `code` says what the editor layer
// maps it to (FileSystemError and the messages); messages name the remote path, never a credential.

import { ComputeToolkitError, type CoreText } from '../errors';

export type SftpFileErrorCode =
  | 'not-found'
  | 'exists'
  | 'not-a-directory'
  | 'is-a-directory'
  | 'no-permission'
  | 'volume-full'
  | 'failed'
  // A name from the server that would put a file outside the chosen folder (core/ssh/entryNames.ts).
  | 'outside-destination'
  // A walk of a remote folder deeper or longer than its bounds (core/nas/remoteWalk.ts).
  | 'too-deep'
  | 'too-many';

/** An SFTP operation the server refused. */
export class SftpFileError extends ComputeToolkitError {
  readonly kind = 'storage' as const;
  constructor(
    readonly code: SftpFileErrorCode,
    message: string | CoreText,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The server cannot be reached over SSH right now (credentials not ready, connection lost, login refused). */
export class SshConnectionError extends ComputeToolkitError {
  readonly kind = 'network' as const;
  override readonly retryable = true;
  constructor(message: string | CoreText, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The login itself was refused (wrong or expired password, key not accepted): retrying the same credentials will not help. */
export class SshAuthError extends SshConnectionError {}

/** The server's host key is not the one pinned for it: nothing was sent. */
export class SshHostKeyError extends ComputeToolkitError {
  readonly kind = 'auth' as const;
  /** Not the platform's credentials: its message says what to do, no profile setting helps (classify.ts). */
  readonly sshLogin = true;
  constructor(
    message: string | CoreText,
    readonly expected: string,
    readonly presented: string,
  ) {
    super(message);
  }
}

/** The user's SSH agent cannot be used (not running, not answering, the key no longer in it): retrying will not help. */
export class SshAgentError extends ComputeToolkitError {
  readonly kind = 'auth' as const;
  /** Not the platform's credentials: its message says what to do, no profile setting helps (classify.ts). */
  readonly sshLogin = true;
  constructor(message: string | CoreText, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** ssh2's SFTP status codes (SSH_FX_*). */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;
const FAILURE = 4;

/** Maps an ssh2 SFTP error to an SftpFileError (or an SshConnectionError for a lost connection); `place` names the server ("the volume"). */
export function fromSftpError(error: unknown, path: string, action: string, place = 'the volume'): SftpFileError | SshConnectionError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === NO_SUCH_FILE) return new SftpFileError('not-found', `${action}: ${path} does not exist on ${place}.`, path, { cause: error });
  if (code === PERMISSION_DENIED) return new SftpFileError('no-permission', `${action}: permission denied for ${path}.`, path, { cause: error });
  if (code === FAILURE || typeof code === 'number') {
    if (/space|quota|full/i.test(message)) {
      return new SftpFileError('volume-full', `${action}: ${place} is full (no space left for ${path}). Expand the volume or free space.`, path, { cause: error });
    }
    if (/exist/i.test(message)) return new SftpFileError('exists', `${action}: ${path} already exists.`, path, { cause: error });
    if (/not empty/i.test(message)) return new SftpFileError('failed', `${action}: ${path} is a folder that is not empty.`, path, { cause: error });
    return new SftpFileError('failed', `${action}: the server refused it for ${path} (${message.slice(0, 200)}).`, path, { cause: error });
  }
  return new SshConnectionError(`${action}: the connection to ${place} was lost (${message.slice(0, 200)}).`, { cause: error });
}
