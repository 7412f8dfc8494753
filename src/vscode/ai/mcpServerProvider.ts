// Offers the bundled MCP server (dist/mcp.js) to VS Code for the active profile: stdio, run by the
// extension host's own runtime. In desktop VS Code that is Electron, which runs a script as plain Node
// only with ELECTRON_RUN_AS_NODE=1 (harmless under Node, as in code-server). Secrets go into the
// environment only at resolve time, straight from SecretStorage: never into settings or files.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { Providers } from '../commandIds';
import type { ExtensionServices, Profile } from '../services';

export const MCP_PROVIDER_ID = Providers.mcpServers;

/** Non-secret environment of the server for a profile (what provideMcpServerDefinitions may show). */
export function publicEnvironment(profile: Profile): Record<string, string> {
  return {
    ELECTRON_RUN_AS_NODE: '1',
    COMPUTE_TOOLKIT_BASE_URL: profile.computeBaseUrl,
    COMPUTE_TOOLKIT_MODE: profile.mode,
    COMPUTE_TOOLKIT_MODEL_BASE_URL: profile.modelApiBaseUrl,
  };
}

export class ComputeMcpServerProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly services: ExtensionServices,
    private readonly serverScript: string,
  ) {
    this.subscription = services.profiles.onDidChangeActive(() => this.changed.fire());
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const profile = this.services.profiles.active;
    if (!profile) return [];
    const definition = new vscode.McpStdioServerDefinition(
      vscode.l10n.t('Compute Toolkit ({0})', profile.label),
      process.execPath,
      [this.serverScript],
      publicEnvironment(profile),
      // A new version makes VS Code refresh the tool list after the profile's address or mode changes.
      `${profile.id}:${profile.mode}:${profile.computeBaseUrl}`,
    );
    return [definition];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition | undefined> {
    const profile = this.services.profiles.active;
    if (!profile) return undefined;
    const secret = (kind: Parameters<ExtensionServices['profiles']['getSecret']>[1]) => this.services.profiles.getSecret(profile.id, kind);
    const [token, privateKey, platformPublicKey, modelApiKey] = await Promise.all([
      secret('apiToken'),
      secret('privateKey'),
      secret('platformPublicKey'),
      secret('modelApiKey'),
    ]);
    if (!token) {
      throw new Refusal(vscode.l10n.t('The profile "{0}" has no API token. Run "Compute: Set API Token…" first.', profile.label));
    }
    const env: Record<string, string | number | null> = { ...publicEnvironment(profile), COMPUTE_TOOLKIT_TOKEN: token };
    if (profile.mode === 'rsa' && privateKey) env['COMPUTE_TOOLKIT_PRIVATE_KEY'] = privateKey;
    if (profile.mode === 'rsa' && platformPublicKey) env['COMPUTE_TOOLKIT_PLATFORM_PUBLIC_KEY'] = platformPublicKey;
    if (modelApiKey) env['COMPUTE_TOOLKIT_MODEL_API_KEY'] = modelApiKey;
    server.env = env;
    return server;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
