// Counted things in the display language: "1 node" / "3 nodes" (English has two forms, 简体中文 one:
// "3 个节点"). VS Code's l10n has no plural rules, so each noun has its two keys here, and a sentence
// takes the counted phrase as a parameter ("Change "a" to {0}" ← "3 nodes"), never "node(s)" nor a bare
// "{0} nodes" (docs/localization.md; test/unit/l10n/plurals.test.ts fails on either).

import * as vscode from 'vscode';

export type CountedNoun =
  | 'node'
  | 'job'
  | 'transfer'
  | 'file'
  | 'volume'
  | 'runningTask'
  | 'pod'
  | 'completion'
  | 'change'
  | 'reset'
  | 'problem'
  | 'warning'
  | 'credentialValue'
  | 'model'
  | 'attempt'
  | 'gpu'
  | 'day'
  | 'minute'
  | 'machine';

/** `count` and its noun in the form the count takes, the number formatted in the display language. */
export function counted(count: number, noun: CountedNoun): string {
  const n = count.toLocaleString(vscode.env.language);
  const one = count === 1;
  switch (noun) {
    case 'node':
      return one ? vscode.l10n.t('{0} node', n) : vscode.l10n.t('{0} nodes', n);
    case 'job':
      return one ? vscode.l10n.t('{0} job', n) : vscode.l10n.t('{0} jobs', n);
    case 'transfer':
      return one ? vscode.l10n.t('{0} transfer', n) : vscode.l10n.t('{0} transfers', n);
    case 'file':
      return one ? vscode.l10n.t('{0} file', n) : vscode.l10n.t('{0} files', n);
    case 'volume':
      return one ? vscode.l10n.t('{0} volume', n) : vscode.l10n.t('{0} volumes', n);
    case 'runningTask':
      return one ? vscode.l10n.t('{0} running task', n) : vscode.l10n.t('{0} running tasks', n);
    case 'pod':
      return one ? vscode.l10n.t('{0} pod', n) : vscode.l10n.t('{0} pods', n);
    case 'completion':
      return one ? vscode.l10n.t('{0} completion', n) : vscode.l10n.t('{0} completions', n);
    case 'change':
      return one ? vscode.l10n.t('{0} change', n) : vscode.l10n.t('{0} changes', n);
    case 'reset':
      return one ? vscode.l10n.t('{0} reset', n) : vscode.l10n.t('{0} resets', n);
    case 'problem':
      return one ? vscode.l10n.t('{0} problem', n) : vscode.l10n.t('{0} problems', n);
    case 'warning':
      return one ? vscode.l10n.t('{0} warning', n) : vscode.l10n.t('{0} warnings', n);
    case 'credentialValue':
      return one ? vscode.l10n.t('{0} env value that looks like a credential', n) : vscode.l10n.t('{0} env values that look like credentials', n);
    case 'model':
      return one ? vscode.l10n.t('{0} model', n) : vscode.l10n.t('{0} models', n);
    case 'attempt':
      return one ? vscode.l10n.t('{0} attempt', n) : vscode.l10n.t('{0} attempts', n);
    case 'gpu':
      return one ? vscode.l10n.t('{0} GPU', n) : vscode.l10n.t('{0} GPUs', n);
    case 'day':
      return one ? vscode.l10n.t('{0} day', n) : vscode.l10n.t('{0} days', n);
    case 'minute':
      return one ? vscode.l10n.t('{0} minute', n) : vscode.l10n.t('{0} minutes', n);
    case 'machine':
      return one ? vscode.l10n.t('{0} machine', n) : vscode.l10n.t('{0} machines', n);
  }
}
