// Bundles: the extension (Node, CommonJS, 'vscode' external), the MCP server (Node, CommonJS), the
// large libraries both load on first use (dist/vendor) and the chat and spend webviews (browser IIFE).
// Usage: node esbuild.js [--production] [--watch]
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints build problems in the format VS Code's problem matcher understands. */
const problemReporter = {
  name: 'problem-reporter',
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  // Minifying renames classes; error names (ComputeApiError, TimeoutError, …) appear in logs and reports.
  keepNames: true,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [problemReporter],
  // jsonc-parser's "main" is a UMD build whose requires esbuild cannot follow; its ES module build bundles.
  alias: { 'jsonc-parser': require.resolve('jsonc-parser/lib/esm/main.js') },
};

/**
 * ssh2's optional native parts: `cpu-features` and its `sshcrypto.node` binding. ssh2 loads both inside
 * try/catch and falls back to pure JavaScript, so they stay out of the bundle (the packaged extension ships
 * no node_modules) and the pure-JS path is what runs everywhere.
 */
const SSH2_OPTIONAL_NATIVE = ['cpu-features', '*.node'];

/**
 * The large libraries (undici ~540 KiB, ssh2 ~280 KiB, yaml, ajv, zod, the notebook kernel client's
 * @jupyterlab/services and ws) ship as their own files in dist/vendor,
 * required by the extension and the MCP server the first time code that uses them runs. Inside one
 * bundle they would be parsed at every activation even though nothing calls them yet (docs/areas.md,
 * "Activation"); as separate files Node reads them only on first use. Each library is in exactly one
 * file, so its classes stay one class (instanceof holds) for every caller.
 */
const VENDORED = ['undici', 'ssh2', 'yaml', 'ajv', 'zod', '@jupyterlab/services', 'ws'];
/**
 * Sends a bundle's imports of `names` to dist/vendor. A library some other package reaches into by
 * subpath (the MCP SDK's ajv-formats uses ajv/dist/…) must not be vendored for that bundle: the subpath
 * would be bundled beside the vendored root, two copies of one library (test/unit/build/vendorSplit).
 */
function vendorPlugin(names) {
  return {
    name: 'vendor',
    setup(build) {
      const pattern = new RegExp(`^(${names.join('|')})$`);
      // Each import of the library becomes a one-line module in the bundle that requires the vendor
      // file: esbuild then treats static and dynamic imports alike (a lazy require with the CommonJS
      // interop), where a bare external import() of a bundled file would see only its default export.
      build.onResolve({ filter: pattern }, (args) => ({ path: args.path, namespace: 'vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./vendor/${args.path}.js`)});`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/vendor\//, namespace: 'vendor' }, (args) => ({ path: args.path, external: true }));
    },
  };
}
/**
 * One namespace object for the `vscode` API in the extension bundle. Every `import * as vscode from
 * 'vscode'` of an external CommonJS module gets its own __toESM copy of the API's ~200 properties in
 * esbuild's output: with 110 importing files that was ~22,000 getters defined at every activation, a
 * large part of require(dist/extension.js) (docs/areas.md, "Activation"). Here every import resolves to
 * one bundled module, `export * from 'vscode'`, so the API is copied once and each file reads through it.
 */
const oneVscodeNamespace = {
  name: 'one-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-api' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/**
 * Jupyter's client logs every WebSocket start and kernel status with console.debug, which lands in the
 * shared extension host's console for every extension's user: those calls are dropped from its vendor
 * file (pure + syntax minification removes an unused pure call; its warnings stay).
 */
const QUIET_VENDOR = { '@jupyterlab/services': { pure: ['console.debug'], minifySyntax: true } };

const vendorTargets = VENDORED.map((name) => ({
  ...common,
  stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: __dirname, loader: 'js' },
  outfile: `dist/vendor/${name}.js`,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: SSH2_OPTIONAL_NATIVE,
  ...(QUIET_VENDOR[name] ?? {}),
}));

const targets = [
  {
    ...common,
    plugins: [...common.plugins, vendorPlugin(VENDORED), oneVscodeNamespace],
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode', ...SSH2_OPTIONAL_NATIVE],
  },
  {
    // The spec validation worker (src/core/specs/validationWorker.ts), started by the extension on a worker thread.
    ...common,
    plugins: [...common.plugins, vendorPlugin(VENDORED)],
    entryPoints: ['src/core/specs/validationWorker.ts'],
    outfile: 'dist/specWorker.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: SSH2_OPTIONAL_NATIVE,
  },
  {
    // The MCP server (stdio), run by any MCP client as `node dist/mcp.js`.
    ...common,
    plugins: [...common.plugins, vendorPlugin(VENDORED.filter((name) => name !== 'ajv' && name !== 'zod'))],
    entryPoints: ['src/mcp/server.ts'],
    outfile: 'dist/mcp.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: SSH2_OPTIONAL_NATIVE,
  },
  ...vendorTargets,
  {
    ...common,
    entryPoints: ['src/webview/chat/main.ts'],
    outfile: 'dist/webview/chat.js',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['src/webview/spend/main.ts'],
    outfile: 'dist/webview/spend.js',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  },
];

/** The options both bundles share, for tests that build a piece of the source the way the release does. */
function sharedOptions({ production: prod }) {
  return { ...common, minify: prod, sourcemap: !prod, plugins: [] };
}

/** Both bundles as the release builds them (for tests that inspect what ships). */
function releaseTargets() {
  return targets.map((target) => ({ ...target, ...sharedOptions({ production: true }) }));
}

async function main() {
  const contexts = await Promise.all(targets.map((options) => esbuild.context(options)));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
}

// The MCP contract test builds the same target into a temporary folder (`--quick` runs skip the build);
// the build tests use the release options (error names kept, shipped packages are dependencies).
module.exports = { targets, sharedOptions, releaseTargets };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
