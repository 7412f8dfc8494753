// Progress of a byte stream: bytes done of total, a rate smoothed over the last few seconds, and the
// time left at that rate. Reports are throttled so a fast loopback transfer does not flood the UI.

export interface TransferProgress {
  /** Bytes done across the whole operation (all files). */
  bytes: number;
  /** Total bytes when known. */
  totalBytes: number | undefined;
  /** Bytes per second over the recent window; 0 until measurable. */
  bytesPerSecond: number;
  /** Seconds left at the current rate; undefined when unknown. */
  secondsLeft: number | undefined;
  /** The file being moved (volume-relative or local path). */
  file?: string;
  filesDone: number;
  filesTotal: number | undefined;
}

export type ProgressListener = (progress: TransferProgress) => void;

const WINDOW_MS = 3000;
const REPORT_EVERY_MS = 200;

export class ProgressMeter {
  private bytes = 0;
  private filesDone = 0;
  private file: string | undefined;
  private readonly samples: { at: number; bytes: number }[] = [];
  private lastReport = 0;

  constructor(
    private readonly totalBytes: number | undefined,
    private readonly filesTotal: number | undefined,
    private readonly listener: ProgressListener | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.samples.push({ at: now(), bytes: 0 });
  }

  startFile(file: string): void {
    this.file = file;
    this.report(true);
  }

  add(bytes: number): void {
    this.bytes += bytes;
    this.report(false);
  }

  /** A retried file's bytes are taken back, so the total never counts them twice. */
  takeBack(bytes: number): void {
    this.bytes = Math.max(0, this.bytes - bytes);
  }

  fileDone(): void {
    this.filesDone++;
    this.report(true);
  }

  get done(): number {
    return this.bytes;
  }

  snapshot(): TransferProgress {
    const at = this.now();
    while (this.samples.length > 1 && at - (this.samples[0] as { at: number }).at > WINDOW_MS) this.samples.shift();
    const first = this.samples[0] as { at: number; bytes: number };
    const elapsed = (at - first.at) / 1000;
    const rate = elapsed > 0.05 ? Math.max(0, (this.bytes - first.bytes) / elapsed) : 0;
    const left = this.totalBytes !== undefined && rate > 0 ? Math.max(0, (this.totalBytes - this.bytes) / rate) : undefined;
    return {
      bytes: this.bytes,
      totalBytes: this.totalBytes,
      bytesPerSecond: rate,
      secondsLeft: left,
      ...(this.file !== undefined ? { file: this.file } : {}),
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
    };
  }

  private report(force: boolean): void {
    const at = this.now();
    if (this.samples.length === 0 || at - (this.samples[this.samples.length - 1] as { at: number }).at >= 250) this.samples.push({ at, bytes: this.bytes });
    if (!this.listener || (!force && at - this.lastReport < REPORT_EVERY_MS)) return;
    this.lastReport = at;
    this.listener(this.snapshot());
  }
}
