// Turns what a user pasted (a PEM block or bare Base64, with any whitespace or Windows line ends)
// into DER bytes plus what the text itself says it is. Deciding whether the DER is usable is keys.ts's job.

import { ConfigError, coreText, type CoreText } from '../errors';

/** Which secret slot the text was given for; every message names it. */
export type KeyRole = 'private' | 'public';

export type PemKind =
  | 'pkcs8-private'
  | 'pkcs1-private'
  | 'spki-public'
  | 'pkcs1-public';

export interface DecodedKeyInput {
  der: Buffer;
  /** Set for PEM input: what the BEGIN line declares. Undefined for bare Base64 (detected from the DER). */
  pemKind?: PemKind;
}

export function roleName(role: KeyRole): string {
  return role === 'private' ? 'client private key' : 'platform public key';
}

/** The slot's name as a message parameter, worded in the display language by the editor. */
export function roleWord(role: KeyRole): CoreText {
  return coreText(role === 'private' ? 'role.private' : 'role.public');
}

/**
 * Longest key text accepted: a 16384-bit RSA key is about 12,700 characters of PEM, so 64 K leaves room
 * for a certificate beside it. Longer text is refused before any parsing (it is not a key).
 */
export const MAX_KEY_INPUT_CHARS = 64 * 1024;

/**
 * One BEGIN or END line of a PEM file. Linear: the label cannot contain "-", so the label runs of two
 * markers never overlap and each is scanned once.
 */
const PEM_MARKER = /-----(BEGIN|END) ([A-Z0-9 ]+)-----/g;

interface PemBlock {
  label: string;
  body: string;
}

/**
 * The PEM blocks of `text`: each BEGIN line with the next END line of the same label, as the regex
 * /-----BEGIN (L)-----([\s\S]*?)-----END \1-----/g finds them, in one pass over the markers (that
 * regex scans to the end of the text for every BEGIN line without its END line: quadratic).
 */
function pemBlocks(text: string): PemBlock[] {
  const markers = [...text.matchAll(PEM_MARKER)].map((m) => ({ begin: m[1] === 'BEGIN', label: m[2] ?? '', from: m.index, to: m.index + m[0].length }));
  // For each label, the positions (in `markers`) of its END lines, in order, and how far each was consumed.
  const ends = new Map<string, { at: number[]; next: number }>();
  markers.forEach((marker, index) => {
    if (marker.begin) return;
    const list = ends.get(marker.label) ?? { at: [], next: 0 };
    list.at.push(index);
    ends.set(marker.label, list);
  });
  const blocks: PemBlock[] = [];
  for (let index = 0; index < markers.length; index++) {
    const begin = markers[index];
    if (!begin?.begin) continue;
    const list = ends.get(begin.label);
    if (!list) continue;
    while (list.next < list.at.length && (list.at[list.next] ?? 0) < index) list.next++;
    const endIndex = list.at[list.next];
    const end = endIndex === undefined ? undefined : markers[endIndex];
    if (endIndex === undefined || !end) continue;
    blocks.push({ label: begin.label, body: text.slice(begin.to, end.from) });
    index = endIndex;
  }
  return blocks;
}

/**
 * The text of a key file read as bytes: a binary DER file (PKCS#8, PKCS#1 or SPKI, which the import
 * dialog offers as .der) becomes its Base64, which decodeKeyInput reads like a pasted Base64 body;
 * anything else is decoded as UTF-8.
 */
export function keyFileText(bytes: Uint8Array): string {
  if (bytes.length > 0 && derSequenceLength(bytes) === bytes.length) return Buffer.from(bytes).toString('base64');
  return new TextDecoder('utf-8').decode(bytes);
}

/** "an" before a word or acronym that starts with a vowel sound (an EC key, an RSA key, a DSA key). */
export function withArticle(word: string): string {
  const acronym = word === word.toUpperCase();
  const vowelSound = acronym ? /^[AEFHILMNORSX]/.test(word) : /^[aeiou]/i.test(word);
  return `${vowelSound ? 'an' : 'a'} ${word}`;
}

const OPENSSH_PUBLIC_LINE = /^(ssh-rsa|ssh-dss|ssh-ed25519|ssh-ed448|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9@.-]+) +[A-Za-z0-9+/=]{16,}/;

/** Inputs that are recognisably something else: named, with how to convert them. Undefined otherwise. */
function recognisedNonKey(text: string, role: KeyRole): ConfigError | undefined {
  const sshLine = OPENSSH_PUBLIC_LINE.exec(text);
  if (sshLine) {
    const type = sshLine[1] ?? 'ssh';
    if (role === 'private') {
      return new ConfigError(coreText('key.opensshLineForPrivate', type), coreText('key.opensshLineForPrivate.hint'));
    }
    if (type !== 'ssh-rsa') return nonRsa(type, role);
    return new ConfigError(coreText('key.opensshLineForPublic'), coreText('key.opensshLineForPublic.hint'));
  }
  if (text.startsWith('PuTTY-User-Key-File-')) {
    return new ConfigError(coreText('key.putty', roleWord(role)), coreText('key.putty.hint'));
  }
  if (text.startsWith('---- BEGIN SSH2 PUBLIC KEY ----')) {
    return new ConfigError(coreText('key.ssh2', roleWord(role)), coreText('key.ssh2.hint'));
  }
  // Bytes of a binary file decoded as text: control characters or replacement characters.
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)) {
    return new ConfigError(coreText('key.binary', roleWord(role)), coreText('key.binary.hint'));
  }
  // Two letters, spaces, two letters: the same test as /[A-Za-z]{2,} +[A-Za-z]{2,}/, which backtracks
  // through every long run of letters (64 K of them took seconds).
  if (/[A-Za-z]{2} +[A-Za-z]{2}/.test(text) && !/^[A-Za-z0-9+/=\s]+$/.test(text)) {
    return new ConfigError(coreText('key.plainText', roleWord(role)), coreText('key.asExported.hint'));
  }
  return undefined;
}

export function decodeKeyInput(input: string, role: KeyRole): DecodedKeyInput {
  const text = input.replace(/^\uFEFF/, '').trim();
  if (text === '') {
    throw new ConfigError(coreText('key.empty', roleWord(role)), coreText(role === 'private' ? 'key.empty.hint.private' : 'key.pastePlatformKey.hint'));
  }
  if (text.length > MAX_KEY_INPUT_CHARS) {
    throw new ConfigError(coreText('key.tooLong', roleWord(role), text.length, MAX_KEY_INPUT_CHARS), coreText('key.oneKey.hint'));
  }
  if (text.includes('-----BEGIN ')) return decodePem(text, role);
  const other = recognisedNonKey(text, role);
  if (other) throw other;
  return { der: decodeBareBase64(text, role) };
}

function decodePem(text: string, role: KeyRole): DecodedKeyInput {
  const blocks = pemBlocks(text);
  if (blocks.length === 0) {
    const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text)?.[1] ?? 'KEY';
    throw new ConfigError(coreText('key.noEnd', roleWord(role), label), coreText('key.noEnd.hint'));
  }
  // A file may hold several blocks (a key and a certificate); prefer the kind this slot expects.
  const wanted = role === 'private' ? /PRIVATE KEY$/ : /PUBLIC KEY$/;
  const block = blocks.find((b) => wanted.test(b.label)) ?? blocks[0];
  if (!block) throw new Error('unreachable: at least one PEM block matched');
  const headerLines = block.body.split(/\r?\n/).filter((line) => line.includes(':'));
  const base64Body = block.body
    .split(/\r?\n/)
    .filter((line) => !line.includes(':'))
    .join('');

  const pemKind = classifyPemLabel(block.label, headerLines, role);
  return { der: decodeBareBase64(base64Body, role, coreText('key.what.block', block.label)), pemKind };
}

function classifyPemLabel(label: string, headerLines: string[], role: KeyRole): PemKind {
  const encryptedError = (): ConfigError =>
    new ConfigError(coreText('key.encryptedPem', roleWord(role), `${label}${headerLines.length > 0 ? ', Proc-Type ENCRYPTED' : ''}`), coreText('key.decrypt.hint'));
  switch (label) {
    case 'PRIVATE KEY':
    case 'RSA PRIVATE KEY':
      if (headerLines.some((line) => /^Proc-Type:.*ENCRYPTED/i.test(line.trim()))) throw encryptedError();
      if (role === 'public') throw privateGivenForPublic();
      return label === 'PRIVATE KEY' ? 'pkcs8-private' : 'pkcs1-private';
    case 'ENCRYPTED PRIVATE KEY':
      throw encryptedError();
    case 'PUBLIC KEY':
    case 'RSA PUBLIC KEY':
      if (role === 'private') throw publicGivenForPrivate();
      return label === 'PUBLIC KEY' ? 'spki-public' : 'pkcs1-public';
    case 'EC PRIVATE KEY':
    case 'DSA PRIVATE KEY':
      throw nonRsa(label.split(' ')[0] ?? label, role);
    case 'OPENSSH PRIVATE KEY':
      throw new ConfigError(coreText('key.openssh', roleWord(role)), coreText('key.openssh.hint'));
    case 'CERTIFICATE':
    case 'X509 CERTIFICATE':
    case 'TRUSTED CERTIFICATE':
      throw new ConfigError(coreText('key.certificate', roleWord(role), label), coreText(role === 'public' ? 'key.certificate.hint.public' : 'key.certificate.hint.private'));
    case 'CERTIFICATE REQUEST':
    case 'NEW CERTIFICATE REQUEST':
      throw new ConfigError(coreText('key.csr', roleWord(role), label), coreText('key.csr.hint'));
    default:
      throw new ConfigError(
        coreText('key.unsupportedBlock', roleWord(role), label),
        coreText(role === 'private' ? 'key.unsupportedBlock.hint.private' : 'key.unsupportedBlock.hint.public'),
      );
  }
}

export function publicGivenForPrivate(): ConfigError {
  return new ConfigError(coreText('key.publicForPrivate'), coreText('key.publicForPrivate.hint'));
}

export function privateGivenForPublic(): ConfigError {
  return new ConfigError(coreText('key.privateForPublic'), coreText('key.privateForPublic.hint'));
}

export function nonRsa(type: string, role: KeyRole): ConfigError {
  const word = type.toUpperCase();
  return new ConfigError(
    coreText(withArticle(word).startsWith('an ') ? 'key.nonRsa.an' : 'key.nonRsa.a', roleWord(role), word),
    coreText(role === 'private' ? 'key.nonRsa.hint.private' : 'key.nonRsa.hint.public'),
  );
}

/** Strict Base64 (standard alphabet, whitespace ignored) to bytes, with a specific message per defect. */
function decodeBareBase64(text: string, role: KeyRole, what: CoreText = coreText('key.what.it')): Buffer {
  const compact = text.replace(/\s+/g, '');
  // Position in the text as given (whitespace included), so the user can find the character.
  const invalidAt = text.search(/[^A-Za-z0-9+/=\s]/);
  if (compact === '') {
    throw new ConfigError(coreText('key.emptyBlock', roleWord(role)), coreText('key.emptyBlock.hint'));
  }
  if (invalidAt !== -1 || /=[^=]/.test(compact) || /={3,}$/.test(compact)) {
    throw new ConfigError(
      invalidAt !== -1 ? coreText('key.badBase64At', roleWord(role), what, invalidAt + 1) : coreText('key.badBase64', roleWord(role), what),
      coreText('key.badBase64.hint'),
    );
  }
  // Base64 without its trailing "=" padding (some tools strip it): pad it, then the DER check decides.
  if (compact.length % 4 === 2 || compact.length % 4 === 3) {
    const padded = compact + '='.repeat(4 - (compact.length % 4));
    const der = Buffer.from(padded, 'base64');
    if (!compact.includes('=') && derSequenceLength(der) === der.length) return der;
  }
  if (compact.length % 4 !== 0) {
    throw new ConfigError(coreText('key.truncatedBase64', roleWord(role), what, compact.length), coreText('key.copyAgain.hint'));
  }
  const der = Buffer.from(compact, 'base64');
  checkDerEnvelope(der, role);
  return der;
}

/**
 * Every key encoding here is one DER SEQUENCE. Checking its declared length against the byte count
 * tells "cut off while copying" apart from "not a key at all" before OpenSSL's generic messages do.
 */
function checkDerEnvelope(der: Buffer, role: KeyRole): void {
  const declared = derSequenceLength(der);
  if (declared === undefined) {
    throw new ConfigError(coreText('key.notDer', roleWord(role), der.length), coreText('key.notDer.hint'));
  }
  if (declared > der.length) {
    throw new ConfigError(coreText('key.truncatedDer', roleWord(role), declared, der.length), coreText('key.truncatedDer.hint'));
  }
  if (declared < der.length) {
    throw new ConfigError(coreText('key.trailingBytes', roleWord(role), der.length - declared), coreText('key.trailingBytes.hint'));
  }
}

/** Total length (header included) of the outer SEQUENCE, or undefined if `der` does not start with one. */
export function derSequenceLength(der: Uint8Array): number | undefined {
  if (der.length < 2 || der[0] !== 0x30) return undefined;
  const first = der[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const lengthBytes = first & 0x7f;
  if (lengthBytes === 0 || lengthBytes > 4 || der.length < 2 + lengthBytes) return undefined;
  let length = 0;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + (der[2 + i] ?? 0);
  return 2 + lengthBytes + length;
}
