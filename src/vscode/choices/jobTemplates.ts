// The job templates as choices: Create Job…'s first step and New Spec from Template's job rows read the
// same rows. Below jobs and specs (docs/areas.md, "Floors"): specs reaches it without sitting on jobs.
import * as vscode from 'vscode';
import { JOB_TEMPLATES, type JobTemplate } from '../../core/jobs/templates';

function templateLabel(template: JobTemplate): string {
  switch (template.id) {
    case 'pytorch':
      return vscode.l10n.t('PyTorch (CUDA): run a command');
    case 'vllm-batch':
      return vscode.l10n.t('vLLM batch inference');
    case 'custom':
      return vscode.l10n.t('Your own image');
  }
}

/** The first step: the flow's title, its question and rows (New Spec from Template lists the rows too). */
export function templateStep(): { title: string; placeholder: string; items: (vscode.QuickPickItem & { template: JobTemplate })[] } {
  return {
    title: vscode.l10n.t('Create Job'),
    placeholder: vscode.l10n.t('Template: what the job runs'),
    items: JOB_TEMPLATES.map((template) => ({ label: templateLabel(template), description: template.image, template })),
  };
}
