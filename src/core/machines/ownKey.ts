// The user's own SSH key for a machine (docs/machines.md): the public keys in their ssh folder that have
// a private key beside them, and the pair read for a first login. A private key protected by a passphrase
// needs it (PassphraseNeededError: the editor asks); a wrong one is refused. The passphrase is never
// logged nor put in an error; the editor keeps it only if the user chooses to (its secret storage).

import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { utils } from 'ssh2';
import { ConfigError, coreText } from '../errors';
import { checkedPublicKey, type MachineKey } from './connect';

export interface OwnPublicKey {
  /** The `.pub` file. */
  file: string;
  /** Its key type and comment, shown in the pick (one bounded line). */
  summary: string;
}

const MAX_KEY_FILE = 64 * 1024;

/** The `*.pub` files in `sshDir` whose private key sits beside them (at most 50, by name). */
export async function ownPublicKeys(sshDir: string): Promise<OwnPublicKey[]> {
  let names: string[];
  try {
    names = await readdir(sshDir);
  } catch {
    return [];
  }
  const found: OwnPublicKey[] = [];
  for (const name of names.filter((item) => item.endsWith('.pub')).sort().slice(0, 50)) {
    if (!names.includes(name.slice(0, -4))) continue;
    try {
      const line = checkedPublicKey((await readFile(path.join(sshDir, name), 'utf8')).slice(0, MAX_KEY_FILE));
      const [type, , comment] = line.split(' ');
      found.push({ file: path.join(sshDir, name), summary: `${type ?? ''} ${(comment ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 80)}`.trim() });
    } catch {
      // Not one key line: not offered.
    }
  }
  return found;
}

/** An own private key protected by a passphrase that was not given: the editor asks for it. */
export class PassphraseNeededError extends ConfigError {
  constructor(readonly privateKeyFile: string) {
    super(coreText('machines.ownKeyPassphrase', privateKeyFile));
    this.name = 'PassphraseNeededError';
  }
}

/** Whether `privateKey` (OpenSSH or PEM text) opens with `passphrase` (undefined: none given). */
export function keyOpens(privateKey: string, passphrase: string | undefined): 'ok' | 'needs-passphrase' | 'wrong-passphrase' | 'unreadable' {
  const parsed = passphrase === undefined ? utils.parseKey(privateKey) : utils.parseKey(privateKey, passphrase);
  if (!(parsed instanceof Error)) return 'ok';
  if (passphrase === undefined) return /passphrase|encrypted/i.test(parsed.message) ? 'needs-passphrase' : 'unreadable';
  return /decrypt|passphrase|bad|integrity|check/i.test(parsed.message) || /encrypted/i.test(privateKey.slice(0, 400)) ? 'wrong-passphrase' : 'unreadable';
}

/**
 * The pair of a `.pub` file (private key beside it), opened with `passphrase` when it has one: without it,
 * PassphraseNeededError; a wrong one or an unreadable key is refused.
 */
export async function readOwnKey(publicFile: string, passphrase?: string): Promise<MachineKey> {
  const privateKeyFile = publicFile.replace(/\.pub$/, '');
  const publicKey = checkedPublicKey((await readFile(publicFile, 'utf8')).slice(0, MAX_KEY_FILE));
  let privateKey: string;
  try {
    privateKey = (await readFile(privateKeyFile, 'utf8')).slice(0, MAX_KEY_FILE);
  } catch {
    throw new ConfigError(coreText('machines.ownKeyUnreadable', privateKeyFile));
  }
  const opens = keyOpens(privateKey, passphrase);
  if (opens === 'needs-passphrase') throw new PassphraseNeededError(privateKeyFile);
  if (opens === 'wrong-passphrase') throw new ConfigError(coreText('machines.ownKeyWrongPassphrase', privateKeyFile));
  if (opens === 'unreadable') throw new ConfigError(coreText('machines.ownKeyUnreadable', privateKeyFile));
  return { publicKey, privateKey, privateKeyFile, ...(passphrase !== undefined ? { passphrase } : {}) };
}
