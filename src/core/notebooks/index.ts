// The notebook kernel client, loaded on first use (src/vscode/notebooks/kernelCore.ts), never at activation.

export { CellOutputs, MAX_OUTPUTS, MAX_RICH_CHARS, type CellOutput, type CellOutputsView } from './cellOutputs';
export { checkJupyterServer, probeKernelWebSocket, shownAddress, type JupyterServer } from './connection';
export { JupyterConnectionError, type JupyterProblem } from './errors';
export { MAX_STREAM_CHARS, MAX_STREAM_LINES } from './outputTail';
export { RemoteKernel, type ExecuteOutcome, type KernelEvents, type KernelLink, type KernelState } from './remoteKernel';
export { checkedFolder, MACHINE_READY_PAUSE_MS, MachineJupyterError, startMachineJupyter, stopMachineJupyter, untilMachineJupyterAnswers, type MachineJupyter, type MachineJupyterProblem } from './machineJupyter';
export { MachineTunnel, type MachineTunnelOptions } from './machineTunnel';
