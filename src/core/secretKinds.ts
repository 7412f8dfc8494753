// The secrets the editor keeps per profile in SecretStorage (never in settings or globalState).
// Here, below the editor layer, so the stored-state validators and the profile store share one list.

/** Secrets kept per profile in SecretStorage (never in settings or globalState). */
export type SecretKind = 'apiToken' | 'privateKey' | 'platformPublicKey' | 'modelApiKey';

export const SECRET_KINDS: readonly SecretKind[] = ['apiToken', 'privateKey', 'platformPublicKey', 'modelApiKey'];

/** The secrets' names in the log (English); shown names come from setupName (src/vscode/errors/errorWords.ts). */
export const SECRET_LABELS: Record<SecretKind, string> = {
  apiToken: 'API token',
  privateKey: 'private key',
  platformPublicKey: 'platform public key',
  modelApiKey: 'model API key',
};
