// Where the user's SSH agent listens (docs/machines.md): SSH_AUTH_SOCK of the extension host's own process
// environment. Apart from core/ssh/agent.ts so that the editor reads it without loading the SSH library.

/**
 * The agent's socket from the process environment given (the caller passes `process.env`): an absolute
 * path on one line (or a Windows named pipe), else none. Never a workspace's settings or files: workspace
 * content could point the login at a socket of its choosing.
 */
export function agentSocket(processEnv: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = processEnv.SSH_AUTH_SOCK;
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) return undefined;
  if (/[\0\r\n]/.test(value)) return undefined;
  return value.startsWith('/') || /^\\\\[.?]\\pipe\\/i.test(value) ? value : undefined;
}
