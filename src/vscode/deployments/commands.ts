// The deployments area's command-table entries: Deploy a Model…, idle pause and a deployment's own key.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { DeployContext } from './deployModel';
import { runDeployWizard } from './deployModel';

async function pickDeployment(context: DeployContext, placeHolder: string): Promise<number | undefined> {
  await context.polling.refreshNow().catch((error: unknown) => context.services.logger.warn(`Deployments: ${error instanceof Error ? error.message : String(error)}`));
  const deployments = context.registry.list().filter((deployment) => deployment.state !== 'ended');
  if (deployments.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No deployment found: run "Compute: Deploy a Model…" first.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    deployments.map((deployment) => ({
      label: deployment.taskName,
      description: deployment.models.map((model) => model.id).join(', '),
      detail: context.registry.reasonOf(deployment) ?? deployment.url,
      taskId: deployment.taskId,
    })),
    { placeHolder },
  );
  return picked?.taskId;
}

export const DEPLOYMENT_COMMANDS: readonly CommandEntry<DeployContext>[] = [
  { id: Commands.deploymentsDeployModel, doing: vscode.l10n.t('Deploy a model'), create: (context) => () => runDeployWizard(context) },
  {
    id: Commands.deploymentsSetIdlePause,
    doing: vscode.l10n.t('Set idle pause'),
    create: (context) => async (taskIdArg?: unknown) => {
      const taskId = typeof taskIdArg === 'number' ? taskIdArg : await pickDeployment(context, vscode.l10n.t('Which deployment?'));
      if (taskId === undefined) return;
      const current = context.registry.idleMinutes(taskId);
      const off = vscode.l10n.t('Off');
      const value = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('Pause after how many minutes without a chat request? Empty or "{0}" turns idle pause off.', off),
        value: current !== undefined ? String(current) : '30',
        validateInput: (text) => (text.trim() === '' || text.trim().toLowerCase() === off.toLowerCase() || (/^\d{1,4}$/.test(text.trim()) && Number(text) >= 1) ? undefined : vscode.l10n.t('A whole number of minutes (at least 1), or empty.')),
      });
      if (value === undefined) return;
      const minutes = /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
      await context.registry.setIdleMinutes(taskId, minutes);
    },
  },
  {
    id: Commands.deploymentsSetKey,
    doing: vscode.l10n.t('Set a deployment API key'),
    create: (context) => async () => {
      const taskId = await pickDeployment(context, vscode.l10n.t('Which deployment needs a key (vLLM started with --api-key)?'));
      if (taskId === undefined) return;
      const key = await vscode.window.showInputBox({ prompt: vscode.l10n.t('API key of this deployment; sent only to its own service URL. Empty removes it.'), password: true, ignoreFocusOut: true });
      if (key === undefined) return;
      await context.registry.setKey(taskId, key.trim() || undefined);
    },
  },
];
