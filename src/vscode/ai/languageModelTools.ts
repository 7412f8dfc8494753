// The compute tools as VS Code language-model tools (agent mode, `#` references, vscode.lm.invokeTool).
// Definitions come from src/core/tools; this file adds the editor's confirmation: every tool that spends
// money or destroys state asks first, naming the profile (prod stands out), the task and the cost or loss.

import * as vscode from 'vscode';
import type { ToolDefinition } from '../../core/tools/api';
// The runner (input schemas: zod) loads with the first tool call; the HTTP stack with the compute client.
import { toolRunner } from '../../core/lazyModules';
import { Commands } from '../commandIds';
import { runWithOrigin } from '../../core/requests/requestOrigin';
import type { ExtensionServices } from '../services';
import { isLocalSandbox, signalOf, toolContext, type AiPorts } from './toolContext';

type Input = Record<string, unknown>;

function noProfileText(): string {
  return vscode.l10n.t(
    'No Compute Toolkit profile is active. Ask the user to run "Compute: Create Profile…" or "Compute: Connect to Local Sandbox…", then call the tool again.',
  );
}

export class ComputeLanguageModelTool implements vscode.LanguageModelTool<Input> {
  constructor(
    private readonly services: ExtensionServices,
    readonly definition: ToolDefinition,
    private readonly ports: AiPorts,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Input>, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = this.definition.invocationMessage(options.input ?? {});
    const profile = this.services.profiles.active;
    if (this.definition.effect === 'read' || !profile) return { invocationMessage };
    if (isLocalSandbox(profile)) {
      return { invocationMessage: vscode.l10n.t('{0} (local sandbox: no real money, not confirmed)', invocationMessage) };
    }
    const context = await toolContext(this.services, this.ports, profile, signalOf(token));
    const confirmation = await toolRunner().confirmTool(this.definition, options.input, context);
    if (!confirmation) return { invocationMessage };
    return { invocationMessage, confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Input>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const profile = this.services.profiles.active;
    if (!profile) return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(noProfileText())]);
    const context = await toolContext(this.services, this.ports, profile, signalOf(token));
    // The tool's requests show in the request history as the agent's.
    const result = await runWithOrigin({ kind: 'tool', tool: this.definition.name }, () => toolRunner().runTool(this.definition, options.input, context));
    this.services.logger.info(`Tool ${this.definition.name} on profile "${profile.label}": ${result.isError ? 'failed' : 'done'}`);
    // A task created, scaled, paused or stopped by an agent shows in the Tasks view at once.
    if (this.definition.effect !== 'read' && !result.isError) void vscode.commands.executeCommand(Commands.tasksRefresh);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
  }
}

/**
 * Registers every tool, each registration pushed into `own` as it is made (a throw halfway leaves the
 * earlier ones there to be taken back); the manifest's `languageModelTools` lists the same names (a unit test checks).
 */
export function registerLanguageModelTools(services: ExtensionServices, definitions: readonly ToolDefinition[], ports: AiPorts, own: vscode.Disposable[]): Map<string, ComputeLanguageModelTool> {
  const tools = new Map<string, ComputeLanguageModelTool>();
  for (const definition of definitions) {
    const tool = new ComputeLanguageModelTool(services, definition, ports);
    tools.set(definition.name, tool);
    own.push(vscode.lm.registerTool(definition.name, tool));
  }
  return tools;
}
