// A machine's files over SFTP (docs/machines.md): SSH sessions keyed by device id on the shared layer
// (core/ssh/sessions.ts), logged in with the machine's key only and its pinned host key checked; the
// editor shows them through the same file-system provider as NAS volumes.

import { ConfigError, coreText } from '../errors';
import type { Logger } from '../log';
import { SshSessions, type SshCredentials } from '../ssh/sessions';
import { keyLogin, MACHINE_WORDS, pinnedPolicy, type MachineKeyStore, type MachineLogin, type PinnedHostKey } from './connect';

export interface MachineFilesPort {
  login(deviceId: number, signal?: AbortSignal): Promise<MachineLogin>;
  store(): MachineKeyStore;
}

/** Key-only SFTP sessions per machine; a machine never connected from this editor is refused with what to do. */
export function machineSftpSessions(port: MachineFilesPort, logger?: Logger): SshSessions<number, SshCredentials> {
  const pinned = new Map<number, { address: string; key: PinnedHostKey }>();
  return new SshSessions<number, SshCredentials>(
    {
      obtain: async (deviceId, signal) => {
        const store = port.store();
        const [key, hostKey] = [await store.machineKey(deviceId), await store.hostKey(deviceId)];
        if (!key || !hostKey) throw new ConfigError(coreText('machines.notConnected', deviceId));
        const login = await port.login(deviceId, signal);
        pinned.set(deviceId, { address: `${login.host}:${login.port}`, key: hostKey });
        return { host: login.host, port: login.port, username: login.username, ...keyLogin(deviceId, key), expireAt: undefined };
      },
      describe: (deviceId) => `SFTP for machine ${deviceId}`,
      connectOptions: (deviceId) => {
        const known = pinned.get(deviceId);
        const address = known?.address ?? '';
        return { hostKeys: pinnedPolicy(address, known?.key, {}), words: MACHINE_WORDS(address) };
      },
    },
    logger ? { logger } : {},
  );
}
