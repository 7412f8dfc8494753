// SSH sessions keyed by what they reach (a volume id, a machine id): credentials come from a port
// (the platform's SFTP session for a volume; a machine's login next), are kept in memory only until
// they expire, and are renewed transparently: when they expire, or the server refuses the login or
// drops the connection, the next call obtains them again and reconnects. Credentials are never
// logged, never part of an error.

import { AbortedError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { SshConnectionError } from './errors';
import { SftpConnection } from './sftpConnection';
import type { SshEndpoint, SshOpenOptions } from './sshConnection';

/** Credentials as the port gives them. */
export interface SshCredentials extends SshEndpoint {
  /** ms; undefined when they do not expire by time (then renewal happens on refusal only). */
  expireAt: number | undefined;
}

/** Where a kind of session gets its credentials, and how its connections are opened and named. */
export interface CredentialsPort<Key, C extends SshCredentials> {
  obtain(key: Key, signal?: AbortSignal): Promise<C>;
  /** What logs call the session ("SFTP session for volume 7"). */
  describe(key: Key): string;
  /** Words and host-key policy for the connections (core/ssh/sshConnection.ts). */
  connectOptions?(key: Key): Omit<SshOpenOptions, 'signal'>;
}

export interface SshSessionOptions {
  /** Renew this long before `expireAt`, so a call never starts on credentials about to die (default 5 s). */
  renewMarginMs?: number;
  now?: () => number;
  logger?: Logger;
}

interface KeyState<C> {
  credentials?: C;
  obtaining?: Promise<C>;
  connection?: SftpConnection;
  connecting?: Promise<SftpConnection>;
}

const MAX_ATTEMPTS = 3;

export class SshSessions<Key, C extends SshCredentials> {
  private readonly states = new Map<Key, KeyState<C>>();
  private readonly renewMarginMs: number;
  protected readonly now: () => number;
  protected readonly logger: Logger;
  /** How many times credentials were obtained anew after expiry or refusal (tests read it). */
  renewals = 0;

  constructor(
    private readonly port: CredentialsPort<Key, C>,
    options: SshSessionOptions = {},
  ) {
    this.renewMarginMs = options.renewMarginMs ?? 5000;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  private state(key: Key): KeyState<C> {
    let state = this.states.get(key);
    if (!state) {
      state = {};
      this.states.set(key, state);
    }
    return state;
  }

  private fresh(credentials: C | undefined): credentials is C {
    return credentials !== undefined && (credentials.expireAt === undefined || this.now() < credentials.expireAt - this.renewMarginMs);
  }

  /** Credentials for `key`, obtained when none are held or they expired. */
  protected async credentials(key: Key, signal?: AbortSignal): Promise<C> {
    const state = this.state(key);
    if (this.fresh(state.credentials)) return state.credentials;
    if (state.credentials) {
      // Expired: forget them at once, and the connection they opened.
      this.forget(key);
      this.renewals++;
      this.logger.info(`${this.port.describe(key)} expired; obtaining a new one`);
    }
    state.obtaining ??= this.port.obtain(key, signal).finally(() => {
      state.obtaining = undefined;
    });
    const credentials = await state.obtaining;
    state.credentials = credentials;
    return credentials;
  }

  private open(key: Key, credentials: C, signal?: AbortSignal): Promise<SftpConnection> {
    return SftpConnection.open(credentials, signal, this.port.connectOptions?.(key) ?? {});
  }

  /** The shared connection for `key` (opened or re-opened as needed). */
  private async connection(key: Key, signal?: AbortSignal): Promise<SftpConnection> {
    const credentials = await this.credentials(key, signal);
    const state = this.state(key);
    if (state.connection && !state.connection.closed) return state.connection;
    state.connecting ??= this.open(key, credentials, signal)
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
   * Runs `action` on the shared connection. A lost connection or refused login (the credentials expired
   * or were withdrawn) renews the credentials and runs `action` again, at most three times in all.
   */
  async run<T>(key: Key, action: (connection: SftpConnection) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.withRenewal(key, signal, async () => action(await this.connection(key, signal)));
  }

  /**
   * A connection of its own for one long transfer (cancelling it closes only this one), renewed like
   * `run`: `action` is called again with a new connection after a loss. `attempt` counts from 1.
   */
  async runDedicated<T>(key: Key, action: (connection: SftpConnection, attempt: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let attempt = 0;
    return this.withRenewal(key, signal, async () => {
      attempt++;
      const connection = await this.open(key, await this.credentials(key, signal), signal);
      const onAbort = (): void => connection.close();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // A cancel that came while the connection was opening fired before the listener: act on it now.
        if (signal?.aborted) throw new AbortedError('The transfer was cancelled.');
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

  private async withRenewal<T>(key: Key, signal: AbortSignal | undefined, once: () => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        return await once();
      } catch (error) {
        if (!(error instanceof SshConnectionError) || signal?.aborted) throw error;
        lastError = error;
        // The credentials may have expired or been withdrawn: drop what we hold and obtain again.
        const credentials = this.state(key).credentials;
        this.forget(key);
        if (credentials) {
          this.renewals++;
          this.logger.info(`${this.port.describe(key)}: connection lost (${error.message}); renewing (attempt ${attempt + 1})`);
        }
      }
    }
    throw lastError;
  }

  /** The credentials held for `key` right now, if fresh (no platform call). */
  protected held(key: Key): C | undefined {
    const credentials = this.states.get(key)?.credentials;
    return this.fresh(credentials) ? credentials : undefined;
  }

  /** When the held credentials expire (ms), or undefined when none are held. */
  expiresAt(key: Key): number | undefined {
    return this.states.get(key)?.credentials?.expireAt;
  }

  /** Drops the credentials and connection held for `key`. */
  forget(key: Key): void {
    const state = this.states.get(key);
    if (!state) return;
    state.connection?.close();
    state.connection = undefined;
    state.credentials = undefined;
  }

  dispose(): void {
    for (const key of [...this.states.keys()]) this.forget(key);
    this.states.clear();
  }
}
