// NAS, SFTP and S3 times are `yyyy-MM-dd HH:mm:ss` with no zone (docs/nas.md); the sandbox writes
// Beijing time (UTC+8), which is what the platform's console shows.

const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

export function formatNasTime(ms: number): string {
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}
