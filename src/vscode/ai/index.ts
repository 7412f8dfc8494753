// VS Code's own AI surfaces: the compute tools for agent mode and the MCP server definition for the
// active profile (and, in chatProvider.ts, the platform's models in the native model picker).
// Registered from the composition root; returns what the in-host tests use.

import * as vscode from 'vscode';
import { TOOLS } from '../../core/tools/index';
import type { ExtensionServices as Services } from '../services';
import { ComputeChatProvider, MODEL_VENDOR, type DeployedModels } from './chatProvider';
import { ComputeLanguageModelTool, registerLanguageModelTools } from './languageModelTools';
import { ComputeMcpServerProvider, MCP_PROVIDER_ID } from './mcpServerProvider';
import type { AiPorts } from './toolContext';

export interface AiApi {
  /** The registered language-model tools by name (tests read their confirmations without the dialog). */
  readonly tools: ReadonlyMap<string, ComputeLanguageModelTool>;
  readonly mcpServers: ComputeMcpServerProvider;
  readonly chatModels: ComputeChatProvider;
}

/** The tools' NAS file access, and a user's deployments for VS Code's model picker (the deployments area's registry). */
/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerAi(services: Services, ports: AiPorts & { deployedModels: DeployedModels }, own: vscode.Disposable[] = []): { api: AiApi; disposables: vscode.Disposable[] } {
  const tools = registerLanguageModelTools(services, TOOLS, ports, own);
  const mcpServers = new ComputeMcpServerProvider(services, services.context.asAbsolutePath('dist/mcp.js'));
  own.push(mcpServers);
  own.push(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpServers));
  const chatModels = new ComputeChatProvider(services, ports.deployedModels);
  own.push(chatModels);
  own.push(vscode.lm.registerLanguageModelChatProvider(MODEL_VENDOR, chatModels));
  return { api: { tools, mcpServers, chatModels }, disposables: own };
}

export type { AiPorts } from './toolContext';
