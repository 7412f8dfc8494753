// SFTP sessions for volumes: obtains credentials from the platform (waiting while the session is
// Pending), keeps them in memory only until `expire_at`, and renews them transparently: when they
// expire, or the server refuses the login or drops the connection, the next call obtains again and
// reconnects. Credentials are never logged, never part of an error, and leave this class only through
// `connectionDetails` (the user's explicit Show Connection Details).

import { AbortedError, ConfigError, coreText } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { NasConnectionError } from './errors';
import type { SftpSessionInfo } from './operations';
import { SftpConnection, type SftpEndpoint } from './sftpConnection';
import { parseNasTime } from './units';

/** The two platform calls the sessions need (a ComputeClient satisfies it). */
export interface SessionApi {
  call(operation: 'nas.sftpObtain', params: { storage_id: number }, options?: { signal?: AbortSignal }): Promise<SftpSessionInfo | null>;
  call(operation: 'nas.sftpDestroy', params: { storage_id: number }, options?: { signal?: AbortSignal }): Promise<null>;
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

interface VolumeState {
  credentials?: Credentials;
  obtaining?: Promise<Credentials>;
  connection?: SftpConnection;
  connecting?: Promise<SftpConnection>;
}

/** `host:port` from the platform; the port defaults to 22. */
export function parseSftpUrl(url: string): { host: string; port: number } {
  const match = /^(?:sftp:\/\/)?(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?\/?$/.exec(url.trim());
  const port = match?.[2] === undefined ? 22 : Number(match[2]);
  if (!match || port < 1 || port > 65535) throw new ConfigError(coreText('nas.badSftpAddress', url.slice(0, 80)));
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

const MAX_ATTEMPTS = 3;

export class NasSessions {
  private readonly volumes = new Map<number, VolumeState>();
  private readonly pendingPollMs: number;
  private readonly pendingTimeoutMs: number;
  private readonly renewMarginMs: number;
  private readonly now: () => number;
  private readonly logger: Logger;
  /** How many times credentials were obtained anew after expiry or refusal (tests read it). */
  renewals = 0;

  constructor(
    private readonly api: SessionApi,
    options: SessionOptions = {},
  ) {
    this.pendingPollMs = options.pendingPollMs ?? 2000;
    this.pendingTimeoutMs = options.pendingTimeoutMs ?? 60_000;
    this.renewMarginMs = options.renewMarginMs ?? 5000;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  private state(storageId: number): VolumeState {
    let state = this.volumes.get(storageId);
    if (!state) {
      state = {};
      this.volumes.set(storageId, state);
    }
    return state;
  }

  private fresh(credentials: Credentials | undefined): credentials is Credentials {
    return credentials !== undefined && (credentials.expireAt === undefined || this.now() < credentials.expireAt - this.renewMarginMs);
  }

  /** Running credentials for the volume, obtaining (and waiting through Pending) when needed. */
  private async credentials(storageId: number, signal?: AbortSignal): Promise<Credentials> {
    const state = this.state(storageId);
    if (this.fresh(state.credentials)) return state.credentials;
    if (state.credentials) {
      // Expired: forget them at once, and the connection they opened.
      this.forget(storageId);
      this.renewals++;
      this.logger.info(`nas: SFTP session for volume ${storageId} expired; obtaining a new one`);
    }
    state.obtaining ??= this.obtain(storageId, signal).finally(() => {
      state.obtaining = undefined;
    });
    const credentials = await state.obtaining;
    state.credentials = credentials;
    return credentials;
  }

  private async obtain(storageId: number, signal?: AbortSignal): Promise<Credentials> {
    const started = this.now();
    for (;;) {
      if (signal?.aborted) throw new AbortedError('Opening the SFTP session was cancelled.');
      const info = await this.api.call('nas.sftpObtain', { storage_id: storageId }, signal ? { signal } : undefined);
      if (info?.status === 'Running') return toCredentials(info);
      if (info?.status === 'Exception') {
        throw new NasConnectionError(coreText('nas.sessionFailed', storageId, `${info.error_code ?? ''} ${info.error_message ?? ''}`.trim()));
      }
      if (this.now() - started > this.pendingTimeoutMs) throw new NasConnectionError(coreText('nas.sessionPending', storageId));
      await delay(this.pendingPollMs, signal);
    }
  }

  /** The volume's shared connection (opened or re-opened as needed). */
  private async connection(storageId: number, signal?: AbortSignal): Promise<SftpConnection> {
    const credentials = await this.credentials(storageId, signal);
    const state = this.state(storageId);
    if (state.connection && !state.connection.closed) return state.connection;
    state.connecting ??= SftpConnection.open(credentials, signal)
      .then((connection) => {
        state.connection = connection;
        connection.onClose(() => {
          if (state.connection === connection) state.connection = undefined;
        });
        return connection;
      })
      .finally(() => {
        state.connecting = undefined;
      });
    return state.connecting;
  }

  /**
   * Runs `action` on the volume's shared connection. A lost connection or refused login (the session
   * expired or was closed) renews the credentials and runs `action` again, at most three times in all.
   */
  async run<T>(storageId: number, action: (connection: SftpConnection) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.withRenewal(storageId, signal, async () => action(await this.connection(storageId, signal)));
  }

  /**
   * A connection of its own for one long transfer (cancelling it closes only this one), renewed like
   * `run`: `action` is called again with a new connection after a loss. `attempt` counts from 1.
   */
  async runDedicated<T>(storageId: number, action: (connection: SftpConnection, attempt: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let attempt = 0;
    return this.withRenewal(storageId, signal, async () => {
      attempt++;
      const connection = await SftpConnection.open(await this.credentials(storageId, signal), signal);
      const onAbort = (): void => connection.close();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await action(connection, attempt);
      } catch (error) {
        if (signal?.aborted) throw new AbortedError('The transfer was cancelled.');
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        connection.close();
      }
    });
  }

  private async withRenewal<T>(storageId: number, signal: AbortSignal | undefined, once: () => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        return await once();
      } catch (error) {
        if (!(error instanceof NasConnectionError) || signal?.aborted) throw error;
        lastError = error;
        // The session may have expired or been closed: drop what we hold and obtain again.
        const state = this.state(storageId);
        const credentials = state.credentials;
        this.forget(storageId);
        if (credentials) {
          this.renewals++;
          this.logger.info(`nas: SFTP connection to volume ${storageId} lost (${error.message}); renewing the session (attempt ${attempt + 1})`);
        }
      }
    }
    throw lastError;
  }

  /** The credentials for an outside client: only for the user's explicit Show Connection Details. */
  async connectionDetails(storageId: number, signal?: AbortSignal): Promise<ConnectionDetails> {
    const c = await this.credentials(storageId, signal);
    return { host: c.host, port: c.port, username: c.username, password: c.password, expireAt: c.expireAt, webUrl: c.webUrl, webdavUrl: c.webdavUrl };
  }

  /** When the held credentials expire (ms), or undefined when none are held. */
  expiresAt(storageId: number): number | undefined {
    return this.volumes.get(storageId)?.credentials?.expireAt;
  }

  hasSession(storageId: number): boolean {
    return this.fresh(this.volumes.get(storageId)?.credentials);
  }

  /** Closes the session on the platform (its credentials stop working) and forgets it here. */
  async destroy(storageId: number, signal?: AbortSignal): Promise<void> {
    this.forget(storageId);
    await this.api.call('nas.sftpDestroy', { storage_id: storageId }, signal ? { signal } : undefined);
  }

  /** Drops the credentials and connection held for a volume (no platform call). */
  forget(storageId: number): void {
    const state = this.volumes.get(storageId);
    if (!state) return;
    state.connection?.close();
    state.connection = undefined;
    state.credentials = undefined;
  }

  dispose(): void {
    for (const id of [...this.volumes.keys()]) this.forget(id);
    this.volumes.clear();
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

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('Opening the SFTP session was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
