// The `computeToolkit.hasCredentials` context key: true while the active profile has every secret its
// mode needs for compute requests (the token; in RSA mode also the private key). The walkthrough's
// "Add your token and keys" step completes on it, whichever way the keys arrived (Set API Token,
// Generate Key Pair, Import, or Connect to Local Sandbox, which stores them itself).
import * as vscode from 'vscode';
import { ContextKeys } from '../commandIds';
import type { ProfileService } from '../services';

export class CredentialsContext implements vscode.Disposable {
  private current = false;
  private readonly subscription: vscode.Disposable;
  /** The latest update, for tests to await. */
  settled: Promise<void>;

  constructor(private readonly profiles: ProfileService) {
    // Fires after a switch, an edit, and a change of the active profile's secrets.
    this.subscription = profiles.onDidChangeActive(() => void this.update());
    this.settled = this.update();
  }

  /** The value last given to the context key. */
  get value(): boolean {
    return this.current;
  }

  update(): Promise<void> {
    this.settled = (async () => {
      const profile = this.profiles.active;
      let has = false;
      if (profile) {
        const token = await this.profiles.getSecret(profile.id, 'apiToken');
        has = Boolean(token) && (profile.mode === 'token' || Boolean(await this.profiles.getSecret(profile.id, 'privateKey')));
      }
      this.current = has;
      await vscode.commands.executeCommand('setContext', ContextKeys.hasCredentials, has);
    })();
    return this.settled;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
