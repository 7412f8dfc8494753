// What tests (in-process or through /__sandbox/jupyter/*) may do to Jupyter tasks' servers.

export interface JupyterControl {
  /** Whether Jupyter tasks' public URLs pass WebSockets (now and for later tasks). */
  setWebSockets(pass: boolean): void;
  /** Drops every open connection to a task's URL (the server and its kernels keep running); how many. */
  cutConnections(taskId: number): number;
  /** What the server sends on a task's open WebSockets goes nowhere from now on (replies lost in flight); how many. */
  swallowServerData(taskId: number): number;
  /** The folder the task's kernels run in; undefined when it runs no Jupyter server. */
  workDir(taskId: number): string | undefined;
}
