// The SSH layer shared by NAS volumes (SFTP sessions from the platform) and machines (a login from the
// platform, then a key): connections, host keys, SFTP, sessions with a credentials port.

export { SshAuthError, SshConnectionError, SshHostKeyError, SftpFileError, fromSftpError, type SftpFileErrorCode } from './errors';
export { hostKeyFingerprint, trustFirstInProcess, type HostKeyPolicy, type PresentedHostKey } from './hostKeys';
export { MAX_EXEC_OUTPUT, SshConnection, type ExecResult, type PtyOptions, type SshEndpoint, type SshOpenOptions, type SshWords } from './sshConnection';
export { MAX_LISTING_ENTRIES, SftpConnection, VOLUME_WORDS, type RemoteEntry, type RemoteListing, type RemoteStat, type RemoteType, type SftpEndpoint } from './sftpConnection';
export { SshSessions, type CredentialsPort, type SshCredentials, type SshSessionOptions } from './sessions';
export { escapedName, isSafeEntryName, localPathUnder, SkippedNames } from './entryNames';
export { generateEd25519Pair, type SshKeyPair } from './keygen';
export { agentKeys, OneKeyAgent, SshAgentError, type AgentKey } from './agent';
export { agentSocket } from './agentSocket';
