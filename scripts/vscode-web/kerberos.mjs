// code-server's VS Code depends on the `kerberos` native addon, which builds from source against the
// GSSAPI headers (Debian/Ubuntu: libkrb5-dev); without them the whole code-server install fails.
// VS Code only loads it for Kerberos proxy authentication, so when the headers are missing the install
// swaps it for the small stand-in in ./kerberos-stub (every call rejects with an explanation).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const kerberosStubSource = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kerberos-stub');

/** Where a C compiler finds <gssapi/gssapi.h> without extra flags. */
const DEFAULT_INCLUDE_DIRS = ['/usr/include', '/usr/local/include'];

/** Whether the real addon can build here: its GSSAPI header is on the compiler's default include path. */
export function gssapiHeadersPresent(includeDirs = DEFAULT_INCLUDE_DIRS) {
  return includeDirs.some((dir) => fs.existsSync(path.join(dir, 'gssapi', 'gssapi.h')));
}

/**
 * Whether to install the stand-in: COMPUTE_TOOLKIT_KERBEROS=stub or =build decides, anything else (unset)
 * means "when the headers are missing".
 */
export function useKerberosStub(env = process.env, headersPresent = gssapiHeadersPresent) {
  const choice = env.COMPUTE_TOOLKIT_KERBEROS;
  if (choice === 'stub') return true;
  if (choice === 'build') return false;
  return !headersPresent();
}

const isKerberosKey = (key) => key === 'kerberos' || key.startsWith('kerberos@');

/**
 * Returns a copy of VS Code's package.json with `kerberos` pointing at the stub (a `file:` spec relative
 * to the package's folder) and no `overrides` entry for it (npm refuses an override that conflicts with
 * the direct dependency), or undefined when it does not depend on kerberos. Other fields are kept.
 */
export function withKerberosStub(packageJson, stubSpec) {
  if (!packageJson.dependencies || !('kerberos' in packageJson.dependencies)) return undefined;
  const patched = { ...packageJson, dependencies: { ...packageJson.dependencies, kerberos: stubSpec } };
  if (packageJson.overrides) {
    patched.overrides = Object.fromEntries(Object.entries(packageJson.overrides).filter(([key]) => !isKerberosKey(key)));
  }
  return patched;
}

/**
 * Copies the stub next to the code-server install and points lib/vscode/package.json at it, before that
 * folder's `npm install` (code-server's postinstall) runs. Returns false when VS Code has no kerberos
 * dependency (nothing to do).
 */
export function installKerberosStub(codeServerPackageDir, stubDir) {
  const vscodeDir = path.join(codeServerPackageDir, 'lib', 'vscode');
  const manifestFile = path.join(vscodeDir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const spec = `file:${path.relative(vscodeDir, stubDir).split(path.sep).join('/')}`;
  const patched = withKerberosStub(manifest, spec);
  if (!patched) return false;
  fs.rmSync(stubDir, { recursive: true, force: true });
  fs.cpSync(kerberosStubSource, stubDir, { recursive: true });
  fs.writeFileSync(manifestFile, `${JSON.stringify(patched, null, 2)}\n`);
  // The shrinkwrap pins the registry tarball; without this entry npm re-resolves kerberos from package.json.
  const shrinkwrapFile = path.join(vscodeDir, 'npm-shrinkwrap.json');
  if (fs.existsSync(shrinkwrapFile)) {
    const shrinkwrap = JSON.parse(fs.readFileSync(shrinkwrapFile, 'utf8'));
    if (shrinkwrap.packages?.['']?.dependencies?.kerberos) shrinkwrap.packages[''].dependencies.kerberos = spec;
    delete shrinkwrap.packages?.['node_modules/kerberos'];
    delete shrinkwrap.dependencies?.kerberos;
    fs.writeFileSync(shrinkwrapFile, `${JSON.stringify(shrinkwrap, null, 2)}\n`);
  }
  return true;
}
