// Host keys: the fingerprint as OpenSSH prints it (`SHA256:` and the unpadded base64 of the key blob's
// SHA-256), and the two policies the SSH layer verifies a server with: trust on first use within this
// process (NAS: the platform publishes no host key), or a key pinned by the caller (machines: kept
// between sessions, a changed key refused before any credential is sent).

import { createHash } from 'node:crypto';
import { SshConnectionError } from './errors';

/** `SHA256:…` of an SSH public key blob (what `ssh-keygen -lf` and OpenSSH's prompts show). */
export function hostKeyFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** What the server presented: its key blob and fingerprint. */
export interface PresentedHostKey {
  blob: Buffer;
  fingerprint: string;
}

/**
 * Decides on a server's host key before any credential is sent: undefined accepts it; an error refuses
 * it (and is what the connect call rejects with).
 */
export type HostKeyPolicy = (address: string, key: PresentedHostKey) => Error | undefined;

const seenInProcess = new Map<string, string>();

/** Trust on first use within this process: the first key seen per host:port, a different one later refused. */
export const trustFirstInProcess: HostKeyPolicy = (address, key) => {
  const known = seenInProcess.get(address);
  if (known === undefined) seenInProcess.set(address, key.fingerprint);
  else if (known !== key.fingerprint) return new SshConnectionError(`The SFTP server at ${address} presented a different host key than before in this session; refusing to send credentials.`);
  return undefined;
};
