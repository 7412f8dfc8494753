'use strict';
// Stand-in for the `kerberos` native addon, put in place by scripts/vscode-web/install.mjs when the
// GSSAPI headers the real addon builds against are missing. VS Code loads `kerberos` lazily, only to
// authenticate to an HTTP proxy with Kerberos (SPNEGO); everything else works without it. Each call
// rejects with this explanation instead of failing the whole code-server install.
const MESSAGE =
  'Kerberos proxy authentication is unavailable: this code-server was installed without the kerberos native addon ' +
  '(its GSSAPI headers were missing). Install them (Debian/Ubuntu: libkrb5-dev), delete .cache/code-server and start again.';

function unavailable() {
  const error = new Error(MESSAGE);
  error.code = 'KERBEROS_UNAVAILABLE';
  return Promise.reject(error);
}

module.exports = {
  initializeClient: unavailable,
  initializeServer: unavailable,
  principalDetails: unavailable,
  checkPassword: unavailable,
  version: '0.0.0-compute-toolkit-stub',
  unavailableMessage: MESSAGE,
};
module.exports.default = module.exports;
