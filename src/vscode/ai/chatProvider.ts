// The platform's chat models in VS Code's model picker (vscode.lm): the active profile's chat models
// only (embedding, rerank, speech and image models filtered out), context sizes from a curated table,
// replies streamed as text parts, reasoning kept out, cancellation aborting the HTTP request, tool calls
// forwarded both ways. Listing never prompts when VS Code asks silently.

import { modelDisplayName } from '../../shared/modelDisplayName';
import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { errorText } from '../errors/errorText';
import { renderModelProviderError } from '../errors/renderers';
import type { ModelRoutes } from '../../core/chat/modelRoutes';
import { formatYuanPerHour } from '../../core/spend/units';
import type { ModelClient, Usage } from '../../core/inference/api';
import { Commands } from '../commandIds';
import type { ExtensionServices as Services } from '../services';
import type { Profile } from '../services';
import { toChatMessages, toChatTools } from './chatMessages';
import { signalOf } from './toolContext';
import { inferenceCore } from '../../core/lazyModules';

export const MODEL_VENDOR = 'compute-toolkit';

/** What the deployments area gives the provider (src/vscode/deployments/deploymentRegistry.ts). */
export interface DeployedModels extends Pick<ModelRoutes, 'route'> {
  models(): { id: string; model: string; name: string; deployment: { taskName: string; state: string }; yuanPerHour: number | undefined; maxModelLen: number | undefined }[];
  readonly onDidChange: vscode.Event<void>;
}

/** 1.120+ hides provider models without it; not in the 1.104 typings, so declared here. */
export interface ComputeModelInformation extends vscode.LanguageModelChatInformation {
  readonly isUserSelectable: boolean;
}

export class ComputeChatProvider implements vscode.LanguageModelChatProvider<ComputeModelInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  private cached: { key: string; client: ModelClient } | undefined;
  constructor(
    private readonly services: Services,
    /** A user's own deployments (docs/deployments.md): listed beside the platform's models, requests sent to their own URLs. */
    private readonly deployments: DeployedModels,
  ) {
    this.subscriptions = [
      services.profiles.onDidChangeActive(() => this.refresh()),
      services.profiles.onDidChangeSecrets(({ kind }) => {
        if (kind === 'modelApiKey') this.refresh();
      }),
      deployments.onDidChange(() => this.refresh()),
    ];
  }

  /** Tell VS Code to list the models again (profile switch, key change, model refresh). */
  refresh(): void {
    this.cached = undefined;
    this.changed.fire();
  }

  private async client(): Promise<{ profile: Profile; client: ModelClient } | undefined> {
    const profile = this.services.profiles.active;
    if (!profile) return undefined;
    const key = await this.services.profiles.getSecret(profile.id, 'modelApiKey');
    if (!key) return undefined;
    const maxRetries = this.services.config.maxRetries;
    const cacheKey = `${profile.id}\n${profile.modelApiBaseUrl}\n${maxRetries}`;
    if (this.cached?.key !== cacheKey) {
      const client = inferenceCore().createModelClient({
        apiBaseUrl: profile.modelApiBaseUrl,
        apiKey: () => this.services.profiles.getSecret(profile.id, 'modelApiKey'),
        maxRetries,
        logger: this.services.logger,
      });
      this.cached = { key: cacheKey, client };
    }
    return { profile, client: this.cached.client };
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<ComputeModelInformation[]> {
    const deployed = this.deployedInformation();
    return [...(await this.platformInformation(options, token)), ...deployed];
  }

  /** Ready deployments only: a paused or ended one disappears from VS Code's picker. */
  private deployedInformation(): ComputeModelInformation[] {
    return this.deployments
      .models()
      .filter((model) => model.deployment.state === 'ready')
      .map((model): ComputeModelInformation => {
        const context = model.maxModelLen ?? 8192;
        const rate = model.yuanPerHour !== undefined ? formatYuanPerHour(model.yuanPerHour) : vscode.l10n.t('price unknown');
        return {
          id: model.id,
          // Two deployments of one model are two rows: the name carries the task, the detail the price.
          name: model.name,
          family: model.model,
          version: model.id,
          detail: vscode.l10n.t('deployed · {0}', rate),
          tooltip: vscode.l10n.t('{0} deployed on task "{1}" ({2}); billed while the task runs', model.model, model.deployment.taskName, rate),
          // vLLM's max_model_len holds prompt and reply together: leave a quarter for the reply.
          maxInputTokens: Math.floor(context * 0.75),
          maxOutputTokens: Math.floor(context * 0.25),
          capabilities: { toolCalling: false, imageInput: false },
          isUserSelectable: true,
        };
      });
  }

  private async platformInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<ComputeModelInformation[]> {
    const active = await this.client();
    if (!active) {
      // Silent listing never prompts; otherwise point at the one command that fixes it.
      if (!options.silent && this.services.profiles.active) {
        void vscode.window
          .showInformationMessage(vscode.l10n.t('Set the model API key of profile "{0}" to use its models in chat.', this.services.profiles.active.label), vscode.l10n.t('Set Model API Key'))
          .then((picked) => (picked ? vscode.commands.executeCommand(Commands.secretsSetModelApiKey) : undefined));
      }
      return [];
    }
    try {
      const { limitsFor } = inferenceCore();
      const models = await active.client.listModels(signalOf(token));
      return models
        .filter((model) => model.chat)
        .map((model): ComputeModelInformation => {
          const limits = limitsFor(model.id);
          const family = model.id.includes('/') ? model.id.slice(0, model.id.indexOf('/')) : model.id;
          return {
            id: model.id,
            // The name the chat's own picker shows ("Qwen3 32B (qwen)"); the id stays in the tooltip.
            name: modelDisplayName(model.id),
            family,
            version: model.id,
            detail: active.profile.label,
            tooltip: vscode.l10n.t('{0} on the compute platform (profile "{1}")', model.id, active.profile.label),
            maxInputTokens: limits.maxInputTokens,
            maxOutputTokens: limits.maxOutputTokens,
            // Image parts are not forwarded yet (the request body carries text only), so no model claims image input.
            capabilities: { toolCalling: limits.toolCalling, imageInput: false },
            isUserSelectable: true,
          };
        });
    } catch (error) {
      this.services.logger.warn(`Model list for the chat model picker failed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  async provideLanguageModelChatResponse(
    model: ComputeModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // A deployed model: its own URL, no platform key; a paused one says why it cannot answer.
    const routed = await this.deployments.route(model.id);
    const active = routed ? undefined : await this.client();
    if (!routed && !active) throw new Error(this.noKeyMessage());
    const client = routed?.client ?? active?.client;
    if (!client) throw new Error(this.noKeyMessage());
    const core = inferenceCore();
    const tools = routed ? undefined : toChatTools(options.tools);
    const modelOptions = options.modelOptions ?? {};
    routed?.started?.();
    const startedAt = Date.now();
    const stream = client.stream(
      {
        model: routed?.model ?? model.id,
        messages: toChatMessages(messages),
        ...(tools ? { tools, ...(options.toolMode === vscode.LanguageModelChatToolMode.Required ? { tool_choice: 'required' as const } : {}) } : {}),
        ...(typeof modelOptions['temperature'] === 'number' ? { temperature: modelOptions['temperature'] } : {}),
        ...(typeof modelOptions['max_tokens'] === 'number' ? { max_tokens: modelOptions['max_tokens'] } : {}),
      },
      signalOf(token),
    );
    let usage: Usage | undefined;
    try {
      for await (const event of stream) {
        if (event.type === 'content') progress.report(new vscode.LanguageModelTextPart(event.text));
        else if (event.type === 'tool-call') progress.report(new vscode.LanguageModelToolCallPart(event.call.id, event.call.name, core.parseToolArguments(event.call)));
        // Reasoning stays out of the answer: the thinking part is still a proposed API.
      }
      const outcome = await stream.outcome;
      usage = outcome.usage;
      if (!outcome.complete) throw new Refusal(vscode.l10n.t('The reply was cut off: {0}', outcome.interruption ?? ''));
    } catch (error) {
      if (token.isCancellationRequested) return;
      if (!active) throw new Error(errorText(error));
      // Clear, actionable text for each failure (the one classification); never a secret (the core removed the key).
      throw new Error(renderModelProviderError(error, active.profile.label));
    } finally {
      // However the request ends (failed, cancelled), the deployment is no longer answering it (docs/money.md).
      routed?.finished?.(Date.now() - startedAt, usage);
    }
  }

  async provideTokenCount(_model: ComputeModelInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const { estimateTokens, TOKENS_PER_MESSAGE } = inferenceCore();
    if (typeof text === 'string') return estimateTokens(text);
    const messages = toChatMessages([text]);
    return messages.reduce((sum, message) => sum + TOKENS_PER_MESSAGE + estimateTokens(message.content) + estimateTokens(JSON.stringify(message.tool_calls ?? '')), 0);
  }

  private noKeyMessage(): string {
    const profile = this.services.profiles.active;
    return profile
      ? vscode.l10n.t('No model API key is set for profile "{0}". Run "Compute: Set Model API Key…".', profile.label)
      : vscode.l10n.t('No Compute Toolkit profile is active. Run "Compute: Create Profile…" or "Compute: Connect to Local Sandbox…".');
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
