// The port the profile, secret and key commands consume: the services every area gets, with the profile
// store's write side and the log redactor's refresh (secrets changed). The composition root passes its
// Services, which provides both; nothing here imports the root (no import circle).

import type { ExtensionServices } from '../services';
import type { ProfileStore } from './profileStore';

export interface ProfileAreaServices extends ExtensionServices {
  readonly profiles: ProfileStore;
  /** Resolves once the log redactor holds the stored secrets as they are now. */
  refreshRedactor(): Promise<void>;
}
