// SFTP sessions for volumes: the SSH layer's sessions (core/ssh/sessions.ts) with the platform's SFTP
// session as the credentials port: obtained on demand (waiting while the session is Pending), kept in
// memory only until `expire_at`, renewed on expiry, refusal or a dropped connection. Credentials are
// never logged, never part of an error, and leave this class only through `connectionDetails` (the
// user's explicit Show Connection Details).

import { AbortedError, ConfigError, coreText } from '../errors';
import { sleep } from '../http/retry';
import type { Logger } from '../log';
import { SshSessions, type CredentialsPort } from '../ssh/sessions';
import { VOLUME_WORDS, type SftpEndpoint } from '../ssh/sftpConnection';
import { NasConnectionError } from './errors';
import type { SftpSessionInfo } from './operations';
import { parseNasTime } from './units';

/** The two platform calls the sessions need: the volume service's (volumeService.ts). */
export interface SessionApi {
  sftpObtain(storageId: number, signal?: AbortSignal): Promise<SftpSessionInfo | null>;
  sftpDestroy(storageId: number, signal?: AbortSignal): Promise<void>;
}

export interface SessionOptions {
  /** Wait between obtain calls while the session is Pending (default 2 s; obtain is idempotent). */
  pendingPollMs?: number;
  /** Give up waiting for a Pending session after this long (default 60 s). */
  pendingTimeoutMs?: number;
  /** Renew this long before `expire_at`, so a call never starts on credentials about to die (default 5 s). */
  renewMarginMs?: number;
  now?: () => number;
  logger?: Logger;
}

/** A Running session's credentials, as kept in memory. */
interface Credentials extends SftpEndpoint {
  sessionId: number;
  /** ms; undefined when the platform gave no parseable time (then renewal happens on refusal only). */
  expireAt: number | undefined;
  webUrl: string | null;
  webdavUrl: string | null;
}

/** What Show Connection Details shows (the only place the password leaves this class). */
export interface ConnectionDetails {
  host: string;
  port: number;
  username: string;
  password: string;
  expireAt: number | undefined;
  webUrl: string | null;
  webdavUrl: string | null;
}

/** `host:port` from the platform; the port defaults to 22. */
export function parseSftpUrl(url: string): { host: string; port: number } {
  const match = /^(?:sftp:\/\/)?(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?\/?$/.exec(url.trim());
  const port = match?.[2] === undefined ? 22 : Number(match[2]);
  if (!match || port < 1 || port > 65535) throw new ConfigError(coreText('nas.badSftpAddress', url.slice(0, 80)));
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

/** The platform's SFTP session as the SSH layer's credentials port. */
class VolumeCredentials implements CredentialsPort<number, Credentials> {
  constructor(
    private readonly api: SessionApi,
    private readonly pendingPollMs: number,
    private readonly pendingTimeoutMs: number,
    private readonly now: () => number,
  ) {}

  describe(storageId: number): string {
    return `nas: SFTP session for volume ${storageId}`;
  }

  connectOptions(): { words: typeof VOLUME_WORDS } {
    return { words: VOLUME_WORDS };
  }

  async obtain(storageId: number, signal?: AbortSignal): Promise<Credentials> {
    const started = this.now();
    for (;;) {
      if (signal?.aborted) throw new AbortedError('Opening the SFTP session was cancelled.');
      const info = await this.api.sftpObtain(storageId, signal);
      if (info?.status === 'Running') return toCredentials(info);
      if (info?.status === 'Exception') {
        throw new NasConnectionError(coreText('nas.sessionFailed', storageId, `${info.error_code ?? ''} ${info.error_message ?? ''}`.trim()));
      }
      if (this.now() - started > this.pendingTimeoutMs) throw new NasConnectionError(coreText('nas.sessionPending', storageId));
      await delay(this.pendingPollMs, signal);
    }
  }
}

export class NasSessions extends SshSessions<number, Credentials> {
  constructor(
    private readonly api: SessionApi,
    options: SessionOptions = {},
  ) {
    const now = options.now ?? Date.now;
    super(new VolumeCredentials(api, options.pendingPollMs ?? 2000, options.pendingTimeoutMs ?? 60_000, now), { ...options, now });
  }

  /** The credentials for an outside client: only for the user's explicit Show Connection Details. */
  async connectionDetails(storageId: number, signal?: AbortSignal): Promise<ConnectionDetails> {
    const c = await this.credentials(storageId, signal);
    return { host: c.host, port: c.port, username: c.username, password: c.password, expireAt: c.expireAt, webUrl: c.webUrl, webdavUrl: c.webdavUrl };
  }

  hasSession(storageId: number): boolean {
    return this.held(storageId) !== undefined;
  }

  /** Closes the session on the platform (its credentials stop working) and forgets it here. */
  async destroy(storageId: number, signal?: AbortSignal): Promise<void> {
    this.forget(storageId);
    await this.api.sftpDestroy(storageId, signal);
  }
}

function toCredentials(info: SftpSessionInfo): Credentials {
  if (!info.sftp_url || !info.username || !info.password) {
    throw new NasConnectionError('The platform reported the SFTP session as Running but gave no address or login.');
  }
  const { host, port } = parseSftpUrl(info.sftp_url);
  return {
    sessionId: info.id,
    host,
    port,
    username: info.username,
    password: info.password,
    expireAt: parseNasTime(info.expire_at),
    webUrl: info.web_url,
    webdavUrl: info.webdav_url,
  };
}

/** The shared abortable wait (http/retry.ts: rejects at once on a signal already aborted), with this wait's words. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch((error: unknown) => {
    throw error instanceof AbortedError ? new AbortedError('Opening the SFTP session was cancelled.') : error;
  });
}
