// Ids of the commands this layer registers and invokes (the manifest's contributes.commands holds the
// same ids; an in-host test checks both directions).

export const Commands = {
  profileCreate: 'computeToolkit.profile.create',
  profileEdit: 'computeToolkit.profile.edit',
  profileDelete: 'computeToolkit.profile.delete',
  profileSwitch: 'computeToolkit.profile.switch',
  profileConnectSandbox: 'computeToolkit.profile.connectSandbox',
  secretsSetToken: 'computeToolkit.secrets.setToken',
  secretsSetPrivateKey: 'computeToolkit.secrets.setPrivateKey',
  secretsImportPrivateKey: 'computeToolkit.secrets.importPrivateKey',
  secretsSetPlatformPublicKey: 'computeToolkit.secrets.setPlatformPublicKey',
  secretsSetModelApiKey: 'computeToolkit.secrets.setModelApiKey',
  secretsClear: 'computeToolkit.secrets.clear',
  keysGenerate: 'computeToolkit.keys.generate',
  keysShowFingerprints: 'computeToolkit.keys.showFingerprints',
  requestSign: 'computeToolkit.request.sign',
  requestSend: 'computeToolkit.request.send',
  requestMeasureClockSkew: 'computeToolkit.request.measureClockSkew',
  showLogs: 'computeToolkit.showLogs',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
