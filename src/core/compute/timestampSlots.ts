// Timestamps unique across the processes of one user (two VS Code windows on one profile, the MCP
// server beside them): the platform refuses a timestamp reused with a token, and two processes
// signing in the same millisecond would both send it.
//
// Each process claims one of SLOTS residues for as long as it runs (a file per slot, created with
// O_EXCL in a per-user folder, holding the pid) and only issues timestamps t with t % SLOTS equal to
// its slot. Two live processes never hold the same slot, so their timestamps can never be equal,
// with no file access per request: the claim is made once, on the first signed request.
//
// Measured alternative: a shared "last issued ms" file updated under an O_EXCL lock file costs
// about 1 ms per request on a 2-vCPU VM (open, read, write, rename, unlink), 1.5–2.5× the RSA
// signature itself, and blocks the event loop while another process holds the lock. The residue
// costs nothing per request; the price is that one process can issue at most 1000/SLOTS distinct
// timestamps per second per token before they run ahead of the clock, which the 5-minute window
// absorbs for any burst the extension makes (100 at once run about 3 s ahead).
//
// If the folder cannot be used (read-only, not ours) or every slot is held, the process takes a
// slot from its pid: collisions become unlikely (1 in SLOTS for two processes) rather than
// impossible, and `reason` says why.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const TIMESTAMP_SLOTS = 32;

/** The platform accepts a timestamp within 5 minutes of its own clock (docs/platform.md). */
export const CLOCK_WINDOW_MS = 5 * 60 * 1000;

export interface TimestampPartition {
  /** This process issues only timestamps t with t % slots === slot. */
  slot: number;
  slots: number;
  /**
   * The highest timestamp the slot's previous holder issued (it may have run ahead of the clock in a
   * burst): this process issues only later ones, so the two never share one.
   */
  notBefore?: number;
  /** Told every timestamp issued in the slot, so that the release hands the highest on. */
  issued?(value: number): void;
}

/** One process, no partition: every millisecond is ours (tests, and the fallback without slots). */
export const WHOLE_CLOCK: TimestampPartition = { slot: 0, slots: 1 };

export interface SlotClaim {
  partition: TimestampPartition;
  /** The slot file held, or undefined when the claim degraded to a pid-derived slot. */
  file?: string;
  /** Why the claim degraded (the caller logs it once). */
  reason?: string;
  release(): void;
}

export interface ClaimOptions {
  dir?: string;
  slots?: number;
  pid?: number;
  /** Whether a process with this pid is running (injectable for tests). */
  isAlive?: (pid: number) => boolean;
}

/**
 * The per-user folder: `/tmp` plus the user id on POSIX, whatever TMPDIR says — processes of one user
 * started with different TMPDIRs (an MCP client's environment, a terminal, a test harness) must meet in
 * one folder, or two of them hold the same slot; the OS temp folder (already per user) on Windows.
 */
export function defaultSlotDir(platform: NodeJS.Platform = process.platform): string {
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : safeUserName();
  return path.join(platform === 'win32' ? os.tmpdir() : '/tmp', `compute-toolkit-${uid}`, 'timestamp-slots');
}

function safeUserName(): string {
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_') || 'user';
  } catch {
    return 'user';
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; only ESRCH means it is gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims a free slot (or one whose holder is gone); never throws. */
export function claimTimestampSlot(options: ClaimOptions = {}): SlotClaim {
  const slots = options.slots ?? TIMESTAMP_SLOTS;
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const dir = options.dir ?? defaultSlotDir();
  const degraded = (reason: string): SlotClaim => ({ partition: { slot: pid % slots, slots }, reason, release: () => undefined });
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The default folder and the one above it (in the shared /tmp): another user's could swap what we claim in.
    for (const folder of options.dir === undefined ? [dir, path.dirname(dir)] : [dir]) {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
        return degraded(`${folder} is not a folder of this user`);
      }
    }
  } catch (error) {
    return degraded(`cannot use ${dir}: ${(error as Error).message}`);
  }
  const fileOf = (slot: number): string => path.join(dir, `slot-${slot}`);
  // First pass: free slots only. Second pass: slots whose holder is no longer running.
  for (let slot = 0; slot < slots; slot++) {
    if (tryCreate(fileOf(slot), pid)) return held(slot, slots, fileOf(slot), pid);
  }
  for (let slot = 0; slot < slots; slot++) {
    const file = fileOf(slot);
    const holder = readHolder(file);
    if (holder === undefined || holder === pid) continue;
    // 0: no pid written yet (a claim in progress), unless it was left half-written long ago.
    if (holder === 0 ? !olderThan(file, HALF_WRITTEN_MS) : isAlive(holder)) continue;
    try {
      fs.unlinkSync(file);
    } catch {
      continue; // someone else took it over first
    }
    if (tryCreate(file, pid)) return held(slot, slots, file, pid);
  }
  return degraded(`all ${slots} timestamp slots in ${dir} are held by running processes`);
}

/** A slot file without a pid this old was left by a process that died while claiming. */
const HALF_WRITTEN_MS = 60_000;

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

function tryCreate(file: string, pid: number): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch {
    return false;
  }
  try {
    fs.writeSync(fd, String(pid));
  } finally {
    fs.closeSync(fd);
  }
  // Read back: a takeover racing with ours may have replaced the file between create and write.
  return readHolder(file) === pid;
}

function readHolder(file: string): number | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : 0; // 0: unreadable content, never a live pid
  } catch {
    return undefined;
  }
}

/** Beside each slot file: the highest timestamp its last holder issued (`<slot file>.after`). */
const AFTER = '.after';

/** Whether a timestamp could still be accepted (inside the platform's window of the real time): only those matter. */
function stillAcceptable(value: number, now = Date.now()): boolean {
  return Math.abs(value - now) < CLOCK_WINDOW_MS;
}

/** The previous holder's highest timestamp, if it could still be accepted (one far away was refused anyway). */
function readAfter(file: string): number | undefined {
  try {
    const text = fs.readFileSync(`${file}${AFTER}`, 'utf8').trim();
    const value = /^\d{13}$/.test(text) ? Number(text) : undefined;
    return value !== undefined && stillAcceptable(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function held(slot: number, slots: number, file: string, pid: number): SlotClaim {
  let released = false;
  let highest = readAfter(file) ?? 0;
  const notBefore = highest > 0 ? highest : undefined;
  return {
    partition: {
      slot,
      slots,
      ...(notBefore !== undefined ? { notBefore } : {}),
      // A skewed clock's values (a test's, or one the platform refuses) are not handed on.
      issued: (value) => {
        if (value > highest && stillAcceptable(value)) highest = value;
      },
    },
    file,
    release() {
      if (released) return;
      released = true;
      // Only our own claim: after a takeover by mistake the file may name someone else.
      if (readHolder(file) === pid) {
        try {
          // The next holder starts after what this process issued, even if it ran ahead of the clock.
          if (highest > 0) fs.writeFileSync(`${file}${AFTER}`, String(highest), { mode: 0o600 });
        } catch {
          // the next holder then starts from its clock, as before
        }
        try {
          fs.unlinkSync(file);
        } catch {
          // already gone
        }
      }
    },
  };
}

let processClaim: SlotClaim | undefined;

/**
 * This process's partition, claimed on first use and released when the process exits. `onDegraded`
 * hears once why the claim fell back to a pid-derived slot.
 */
export function processTimestampPartition(onDegraded?: (reason: string) => void): TimestampPartition {
  if (!processClaim) {
    processClaim = claimTimestampSlot();
    const claim = processClaim;
    process.once('exit', () => claim.release());
    if (claim.reason) onDegraded?.(claim.reason);
  }
  return processClaim.partition;
}
