// A sandbox machine rented until Serving, and Connect… answered as a user would, for the machine kernel suites.
import type { ExtensionApi } from '../../../src/vscode/api';
import { connectAsUser } from '../machines/connectAsUser';
import { rentUntilServing } from '../machines/rentMachine';

export async function rentAndConnect(api: ExtensionApi, device: number): Promise<void> {
  await rentUntilServing(api, device);
  await connectAsUser(api, device);
}
