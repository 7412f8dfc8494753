// Where spec secret references are looked up: {"secret": name} in SecretStorage under the spec-secret
// prefix (never a profile's token or key: those live under other keys), {"env": NAME} in this
// process's environment, only for names the user allowed in their own settings (a spec file comes
// with the workspace: docs/security.md). Values are never written to a file, a log or a view.

import * as vscode from 'vscode';
import { SecretKeys } from '../commandIds';
import { specsCore } from '../../core/specs/load';
import type { SecretRef } from '../../core/specs/types';

export class SpecSecrets {
  constructor(
    private readonly storage: vscode.SecretStorage,
    /** Names {"env": NAME} may read: the user's setting for the editor; none for the agent tools. */
    private readonly allowedEnvironment: () => ReadonlySet<string>,
  ) {}

  private key(name: string): string {
    return `${SecretKeys.specSecretPrefix}/${name}`;
  }

  resolve(ref: SecretRef): Promise<string | undefined> {
    return specsCore().specResolver({
      storedSecret: (name) => this.storage.get(this.key(name)),
      environment: (name) => process.env[name],
      allowed: (name) => this.allowedEnvironment().has(name),
    })(ref);
  }

  store(name: string, value: string): Thenable<void> {
    return this.storage.store(this.key(name), value);
  }

  delete(name: string): Thenable<void> {
    return this.storage.delete(this.key(name));
  }
}
