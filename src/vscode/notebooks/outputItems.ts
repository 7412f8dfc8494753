// A cell's kernel outputs (src/core/notebooks/cellOutputs.ts) as VS Code notebook outputs. Rich data goes to
// VS Code's own renderers by MIME type (images as bytes, JSON as JSON, HTML as HTML — drawn by VS Code's
// renderer, never by this extension); dropped text and outputs are said in a localized note.

import * as vscode from 'vscode';
import type { CellOutput, CellOutputsView } from '../../core/notebooks/cellOutputs';

const BINARY_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The MIME types a notebook output offers, most specific first (VS Code picks the richest it can render). */
const MAX_MIMES_PER_OUTPUT = 16;

function richItems(data: Record<string, unknown>): vscode.NotebookCellOutputItem[] {
  const items: vscode.NotebookCellOutputItem[] = [];
  for (const [mime, value] of Object.entries(data).slice(0, MAX_MIMES_PER_OUTPUT)) {
    if (BINARY_IMAGES.has(mime) && typeof value === 'string') items.push(new vscode.NotebookCellOutputItem(Buffer.from(value.replace(/\s+/g, ''), 'base64'), mime));
    else if (mime === 'application/json' || mime.endsWith('+json')) items.push(vscode.NotebookCellOutputItem.json(value, mime));
    else if (typeof value === 'string') items.push(vscode.NotebookCellOutputItem.text(value, mime));
    else if (Array.isArray(value) && value.every((part) => typeof part === 'string')) items.push(vscode.NotebookCellOutputItem.text(value.join(''), mime));
    else items.push(vscode.NotebookCellOutputItem.json(value, mime));
  }
  return items;
}

function outputOf(output: CellOutput): vscode.NotebookCellOutput {
  switch (output.kind) {
    case 'stream': {
      const note = output.droppedLines > 0 ? `${vscode.l10n.t('… earlier lines not shown, the last ones are kept (left out: {0})', output.droppedLines.toLocaleString(vscode.env.language))}\n` : '';
      const text = note + output.text;
      return new vscode.NotebookCellOutput([output.name === 'stderr' ? vscode.NotebookCellOutputItem.stderr(text) : vscode.NotebookCellOutputItem.stdout(text)]);
    }
    case 'rich':
      return new vscode.NotebookCellOutput(richItems(output.data), output.metadata);
    case 'too-large':
      return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stderr(vscode.l10n.t('An output was left out: too large to show.'))]);
    case 'error':
      return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: output.ename, message: output.evalue, stack: output.traceback.join('\n') })]);
  }
}

export function notebookOutputs(view: CellOutputsView): vscode.NotebookCellOutput[] {
  const outputs = view.outputs.map(outputOf);
  if (view.droppedOutputs > 0) {
    outputs.unshift(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stderr(vscode.l10n.t('… earlier outputs not shown (left out: {0})', view.droppedOutputs.toLocaleString(vscode.env.language)))]));
  }
  return outputs;
}
