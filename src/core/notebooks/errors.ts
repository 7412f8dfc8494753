// What can go wrong reaching a Jupyter server, as a code the editor words (src/vscode/notebooks/kernelWords.ts)
// and an English message for logs. Never carries the token.

export type JupyterProblem =
  /** Nothing answers at the address (refused, DNS, TLS). */
  | 'unreachable'
  /** The gateway answers 502/503/504: the server is still starting (or gone). */
  | 'not-ready'
  /** Something answers, but not Jupyter's REST API. */
  | 'not-jupyter'
  /** Jupyter answers 401/403 to the token. */
  | 'wrong-token'
  /** REST works but the kernel WebSocket is refused: the URL does not pass WebSockets. */
  | 'no-websockets'
  /** The kernel died or the server lost it. */
  | 'kernel-dead'
  /** Any other HTTP failure (status in `status`). */
  | 'http';

export class JupyterConnectionError extends Error {
  override readonly name = 'JupyterConnectionError';

  constructor(
    readonly problem: JupyterProblem,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
