// Body encryption (docs/signing.md): compact JSON → UTF-8 → segments of at most 244 bytes → RSA PKCS#1 v1.5
// with the PLATFORM public key → ciphertext blocks concatenated → one Base64. Segments are cut by
// bytes, not characters: a multi-byte character may straddle two segments, and the server joins the
// decrypted bytes before decoding, so nothing is lost.

import * as crypto from 'node:crypto';
import { AbortedError, ConfigError, coreText } from '../errors';
import { modulusBytes } from './keys';
export { compactJson } from './compactJson';

/**
 * PKCS#1 v1.5 allows k − 11 bytes per block; the platform's reference script uses k − 12 (244 for a
 * 2048-bit key) and so do we, so both produce the same segment boundaries.
 */
export function segmentSizeFor(key: crypto.KeyObject): number {
  return modulusBytes(key) - 12;
}

export const SEGMENT_BYTES_2048 = 244;

/** Splits bytes into consecutive views of at most `size` bytes (no copying). */
export function segmentBytes(bytes: Uint8Array, size: number = SEGMENT_BYTES_2048): Uint8Array[] {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError(`segment size must be a positive integer, got ${size}`);
  const segments: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    segments.push(bytes.subarray(offset, Math.min(offset + size, bytes.length)));
  }
  return segments;
}

function encryptSegment(segment: Uint8Array, key: crypto.KeyObject): Buffer {
  return crypto.publicEncrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, segment);
}

function checkPublicKey(key: crypto.KeyObject): void {
  if (key.type !== 'public') {
    throw new ConfigError(coreText('body.needsPublicKey'));
  }
}

/** Encrypts `plaintext` (the compact JSON text) synchronously; fine for bodies up to a few hundred KB. */
export function encryptBody(plaintext: string, platformKey: crypto.KeyObject): string {
  checkPublicKey(platformKey);
  return encryptBytes(Buffer.from(plaintext, 'utf8'), platformKey);
}

function encryptBytes(bytes: Buffer, platformKey: crypto.KeyObject): string {
  const blockBytes = modulusBytes(platformKey);
  const segmentSize = segmentSizeFor(platformKey);
  const count = Math.ceil(bytes.length / segmentSize);
  const out = Buffer.allocUnsafe(count * blockBytes);
  for (let i = 0; i < count; i++) {
    const start = i * segmentSize;
    encryptSegment(bytes.subarray(start, Math.min(start + segmentSize, bytes.length)), platformKey).copy(out, i * blockBytes);
  }
  return out.toString('base64');
}

/** Longest stretch of encryption work between two yields to the event loop. */
const SLICE_BUDGET_MS = 10;
/** Bodies up to this size are encrypted in one go (a 256 KB body takes ~25 ms on a slow machine). */
export const INLINE_ENCRYPTION_LIMIT_BYTES = 256 * 1024;

/**
 * Same output as encryptBody, but a large body is encrypted in time slices with a setImmediate
 * between them, so the extension host never blocks for more than ~10 ms (1 MB takes ~90 ms of CPU).
 * Each slice also writes its blocks as Base64 (slices end on a multiple of three blocks, so the pieces
 * join to the one Base64 of all blocks): no single turn encodes the whole ciphertext. Checks `signal`
 * between slices.
 */
export async function encryptBodyAsync(
  plaintext: string,
  platformKey: crypto.KeyObject,
  signal?: AbortSignal,
): Promise<string> {
  if (plaintext.length * 3 <= INLINE_ENCRYPTION_LIMIT_BYTES) return encryptBody(plaintext, platformKey);
  checkPublicKey(platformKey);
  // A turn of its own: the body was written out on the turn that called this (docs/signing.md, "Body size").
  await nextTurn(signal);
  const bytes = Buffer.from(plaintext, 'utf8');
  if (bytes.length <= INLINE_ENCRYPTION_LIMIT_BYTES) return encryptBytes(bytes, platformKey);
  await nextTurn(signal);
  const blockBytes = modulusBytes(platformKey);
  const segmentSize = segmentSizeFor(platformKey);
  const count = Math.ceil(bytes.length / segmentSize);
  const block = Buffer.allocUnsafe(blockBytes * SEGMENTS_PER_CHECK);
  const base64: string[] = [];
  let i = 0;
  while (i < count) {
    const sliceStart = performance.now();
    // Check the clock every 6 segments (~120 µs): cheap, well inside the budget, and three blocks' worth of Base64.
    do {
      const end = Math.min(i + SEGMENTS_PER_CHECK, count);
      let written = 0;
      for (; i < end; i++) {
        const start = i * segmentSize;
        written += encryptSegment(bytes.subarray(start, Math.min(start + segmentSize, bytes.length)), platformKey).copy(block, written);
      }
      base64.push(block.toString('base64', 0, written));
    } while (i < count && performance.now() - sliceStart < SLICE_BUDGET_MS);
    if (i < count) await nextTurn(signal);
  }
  return base64.join('');
}

async function nextTurn(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new AbortedError();
}

/** Segments encrypted between two looks at the clock: a multiple of 3, so each group's blocks are whole Base64 quanta. */
const SEGMENTS_PER_CHECK = 6;
