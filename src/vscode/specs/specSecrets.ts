// Where spec secret references are looked up: {"secret": name} in SecretStorage under the spec-secret
// prefix (never a profile's token or key: those live under other keys), {"env": NAME} in this
// process's environment. Values are never written to a file, a log or a view.

import * as vscode from 'vscode';
import { SecretKeys } from '../commandIds';
import type { SecretRef } from '../../core/specs/types';

export class SpecSecrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  private key(name: string): string {
    return `${SecretKeys.specSecretPrefix}/${name}`;
  }

  async resolve(ref: SecretRef): Promise<string | undefined> {
    if ('secret' in ref) return this.storage.get(this.key(ref.secret));
    const value = process.env[ref.env];
    return value === undefined || value === '' ? undefined : value;
  }

  store(name: string, value: string): Thenable<void> {
    return this.storage.store(this.key(name), value);
  }

  delete(name: string): Thenable<void> {
    return this.storage.delete(this.key(name));
  }
}
