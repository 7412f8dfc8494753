// Bare-metal machines (docs/machines.md): operations, the rented machines as remote state, the service,
// connecting over SSH (core/ssh), the ssh config writer and the group launcher.

export * from './operations';
export { MACHINE_STATE, readRentedMachines, timeLeftMs, type RentedMachine } from './machineState';
export { MachineService, PriceChangedError, type RentRequest, type WaitOptions } from './machineService';
export { RentalEndedError, rentalIsOver } from './rentalEnded';
export { POINTS_PER_YUAN, productLabel, shownText, totalPoints, unitPriceOf } from './catalogue';
export {
  agentPublicKey,
  checkedPublicKey,
  connectMachine,
  connectRented,
  lockPasswordLogin,
  probeHostKey,
  generateMachineKey,
  hostKeyLine,
  keyLogin,
  pinnedPolicy,
  type ConnectOptions,
  type KeyChoice,
  type MachineConnection,
  type MachineKey,
  type MachineKeyStore,
  type MachineLogin,
  type PinnedHostKey,
} from './connect';
export { configPath, hostKeyAlias, machineAlias, userSshConfig, includesOurs, knownHostsPath, renderConfig, renderKnownHosts, writeAtomically, writeMachineConfig, type MachineHostEntry, type SshConfigFiles } from './sshConfig';
export { DEFAULT_MASTER_PORT, defaultGroupCommand, GROUP_VARIABLES, groupLaunches, groupRankEnvs, shellWord, type GroupLaunch, type RankLaunch } from './launcher';
export { cannotSucceedByRetrying, DEFAULT_SHELL_ATTEMPTS, MachineShell, type MachineShellOptions, type MachineShellState } from './machineShell';
export { keyOpens, ownPublicKeys, PassphraseNeededError, readOwnKey, type OwnPublicKey } from './ownKey';
export { forwardPort, type PortForward } from './portForward';
export { machineSftpSessions, type MachineFilesPort } from './machineFiles';
export { RANK_ZERO_GRACE_MS, startGroupCommand, startGroupRun, type GroupCommandOptions, type GroupMachine, type GroupRun, type GroupRunOptions, type RankResult, type RankZeroWatch } from './groupRun';
export { commandMasterPort, pickMasterPort, portProbeCommand, PORT_CANDIDATES, type MasterPort } from './masterPort';
export { machineCommandLine, machineSyncDir, startMachineCommand, syncToMachine, type MachineCommand, type MachineCommandOptions } from './machineRun';
export { agentKeys, SshAgentError, type AgentKey } from '../ssh/agent';
