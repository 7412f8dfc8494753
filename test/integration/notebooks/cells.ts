// What the notebook suites read of a cell and how they run one: run it and wait for this run's end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { until } from '../ai/aiTestApi';

export function stdout(cell: vscode.NotebookCell): string {
  return cell.outputs.flatMap((output) => output.items.filter((item) => item.mime === 'application/vnd.code.notebook.stdout').map((item) => new TextDecoder().decode(item.data))).join('');
}

export function errorName(cell: vscode.NotebookCell): string | undefined {
  const item = cell.outputs.flatMap((output) => output.items).find((candidate) => candidate.mime === 'application/vnd.code.notebook.error');
  return item ? (JSON.parse(new TextDecoder().decode(item.data)) as { name: string }).name : undefined;
}

/** Runs cell `index` and waits until this run (not an earlier one) has finished. */
export async function runCell(notebook: vscode.NotebookDocument, index: number): Promise<vscode.NotebookCell> {
  const before = notebook.cellAt(index).executionSummary?.timing?.endTime;
  await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: index, end: index + 1 }], document: notebook.uri });
  return until(() => notebook.cellAt(index), (cell) => cell.executionSummary?.success !== undefined && cell.executionSummary.timing?.endTime !== before, `cell ${index} to finish`);
}

/** A saved .ipynb of python code cells in a folder of its own (saved notebooks are remembered; untitled ones are not). */
export function savedNotebook(name: string, cells: readonly string[]): vscode.Uri {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-')), name);
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { language_info: { name: 'python' } },
    cells: cells.map((source, index) => ({ cell_type: 'code', id: `c${index}`, metadata: {}, execution_count: null, outputs: [], source })),
  };
  fs.writeFileSync(file, JSON.stringify(notebook));
  return vscode.Uri.file(file);
}
