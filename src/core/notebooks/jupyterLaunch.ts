// What a task needs to start a Jupyter server the extension can reach (docs/notebooks.md): a Jupyter image
// (the create wizard's Jupyter template, `quay.io/jupyter/…`, `jupyter/…`) and a token the extension makes
// itself — 32 random bytes, passed as the service env JUPYTER_TOKEN (which the Jupyter images read) and kept
// only in SecretStorage by the editor. Plain Node, no library: the create paths import it at activation.

import { randomBytes } from 'node:crypto';

export const JUPYTER_TOKEN_ENV = 'JUPYTER_TOKEN';
const TOKEN_BYTES = 32;

/** A Jupyter image by name (the template's `quay.io/jupyter/…` or Docker Hub's `jupyter/…`). */
export function isJupyterImage(image: string): boolean {
  return /(^|\/)jupyter\//.test(image.trim());
}

/** A new server token: 64 hex characters from the system's cryptographic random source. */
export function newJupyterToken(random: (size: number) => Uint8Array = randomBytes): string {
  return Buffer.from(random(TOKEN_BYTES)).toString('hex');
}

export interface TokenedEnv {
  env: Record<string, string>;
  token: string;
  /** false: the user set JUPYTER_TOKEN themselves; that one is kept (and remembered) as it is. */
  generated: boolean;
}

/** The env with the server's token: the user's own JUPYTER_TOKEN when set, else a new one added. */
export function withJupyterToken(env: Readonly<Record<string, string>>, newToken: () => string = newJupyterToken): TokenedEnv {
  const own = env[JUPYTER_TOKEN_ENV];
  if (own !== undefined && own !== '') return { env: { ...env }, token: own, generated: false };
  const token = newToken();
  return { env: { ...env, [JUPYTER_TOKEN_ENV]: token }, token, generated: true };
}
