// Errors of file work on a volume: the SSH layer's (core/ssh/errors.ts) under the names NAS code uses,
// and the S3 connection check's.

import { ConfigError, coreText } from '../errors';

export { SftpFileError as NasFileError, SshConnectionError as NasConnectionError, fromSftpError, type SftpFileErrorCode as NasFileErrorCode } from '../ssh/errors';

/** The platform's S3 connection check answered `pass: false`: nothing was created. */
export class S3CheckFailedError extends ConfigError {
  readonly code = 's3-check-failed' as const;
  constructor(readonly serverMessage: string) {
    super(coreText('nas.s3CheckFailed', serverMessage), coreText('nas.s3CheckFailed.hint'));
  }
}
