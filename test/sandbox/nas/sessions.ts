// SFTP sessions per volume (docs/nas.md): obtain is idempotent (the open session, Pending while one
// is provisioned, a fresh one once the old one expired); destroy wipes the credentials. Credentials
// are random per session and really expire at `expire_at`: authentication refuses them afterwards and
// the server closes the session's open connections at that moment.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { formatNasTime } from './platformTime';

export interface SessionTimings {
  /** How long obtain answers Pending before the session runs (ms). */
  pendingMs: number;
  /** How long credentials live once Running (ms); `expire_at` is rounded up to a whole second. */
  lifetimeMs: number;
}

export interface SftpSession {
  id: number;
  storageId: number;
  username: string;
  password: string;
  runningAt: number;
  expireAt: number;
  destroyed: boolean;
}

/** Something that holds connections of a session open and can close them (the SFTP server). */
export type SessionCloser = (session: SftpSession) => void;

let nextSessionId = 7;

export class SessionStore {
  private readonly byVolume = new Map<number, SftpSession>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  closer: SessionCloser = () => undefined;

  constructor(
    private readonly now: () => number,
    readonly timings: SessionTimings,
  ) {}

  /** The current session of a volume, creating one when there is none or it expired. */
  obtain(storageId: number): SftpSession {
    const current = this.byVolume.get(storageId);
    if (current && !current.destroyed && current.expireAt > this.now()) return current;
    if (current) this.end(current);
    const runningAt = this.now() + this.timings.pendingMs;
    const expireAt = Math.ceil((runningAt + this.timings.lifetimeMs) / 1000) * 1000;
    const session: SftpSession = {
      id: nextSessionId++,
      storageId,
      username: `u${storageId}-${randomBytes(3).toString('hex')}`,
      password: randomBytes(18).toString('base64url'),
      runningAt,
      expireAt,
      destroyed: false,
    };
    this.byVolume.set(storageId, session);
    const timer = setTimeout(() => this.expire(session), Math.max(0, expireAt - this.now()));
    timer.unref();
    this.timers.set(session.id, timer);
    return session;
  }

  view(session: SftpSession, sftpHost: string): Record<string, unknown> {
    const running = this.now() >= session.runningAt;
    return {
      id: session.id,
      status: running ? 'Running' : 'Pending',
      username: running ? session.username : null,
      password: running ? session.password : null,
      sftp_url: running ? sftpHost : null,
      web_url: running ? sftpHost.replace(/:\d+$/, ':80') : null,
      webdav_url: running ? sftpHost.replace(/:\d+$/, ':81') : null,
      expire_at: running ? formatNasTime(session.expireAt) : null,
      error_code: null,
      error_message: null,
    };
  }

  destroy(storageId: number): void {
    const session = this.byVolume.get(storageId);
    if (session) this.end(session);
  }

  /** Ends a session now, as if `expire_at` had come (the expiry fault). */
  expire(session: SftpSession): void {
    session.expireAt = Math.min(session.expireAt, this.now());
    this.end(session);
  }

  current(storageId: number): SftpSession | undefined {
    return this.byVolume.get(storageId);
  }

  /** The session these credentials belong to, if they are valid right now. */
  authenticate(username: string, password: string): SftpSession | undefined {
    for (const session of this.byVolume.values()) {
      if (session.username !== username) continue;
      if (session.destroyed || this.now() < session.runningAt || this.now() >= session.expireAt) return undefined;
      const given = Buffer.from(password);
      const expected = Buffer.from(session.password);
      return given.length === expected.length && timingSafeEqual(given, expected) ? session : undefined;
    }
    return undefined;
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private end(session: SftpSession): void {
    session.destroyed = true;
    const timer = this.timers.get(session.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(session.id);
    if (this.byVolume.get(session.storageId) === session) this.byVolume.delete(session.storageId);
    this.closer(session);
  }
}
