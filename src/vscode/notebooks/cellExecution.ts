// One cell run on the remote kernel as a VS Code cell execution: outputs streamed into the cell at most every
// DRAW_MS (100,000 lines never block the editor), interrupt on cancel, execution order and time, and a
// connection problem shown as the cell's error output (docs/notebooks.md).

import * as vscode from 'vscode';
import type { CellOutputs } from '../../core/notebooks/cellOutputs';
import type { RemoteKernel } from '../../core/notebooks/remoteKernel';
import type { ExtensionServices } from '../services';
import { kernelCore } from './kernelCore';
import { problemText } from './kernelWords';
import { notebookOutputs } from './outputItems';

/** Streamed output is redrawn at most this often, so 100,000 lines never block the editor. */
const DRAW_MS = 100;
/** The product's name, the same in every language (the kernel picker's label). */
// eslint-disable-next-line no-restricted-syntax -- the product name, not translated
export const PRODUCT = 'Compute Toolkit';

type Logger = ExtensionServices['logger'];

/** Runs `cell` on the kernel `kernelOf` gives; the cell's outputs when the code raised (for the upload offer). */
export async function executeCell(controller: vscode.NotebookController, cell: vscode.NotebookCell, kernelOf: () => Promise<RemoteKernel | undefined>, logger: Logger): Promise<CellOutputs | undefined> {
  const execution = controller.createNotebookCellExecution(cell);
  execution.start(Date.now());
  await execution.clearOutput();
  let kernel: RemoteKernel | undefined;
  try {
    kernel = await kernelOf();
  } catch (error) {
    await execution.replaceOutput(problemOutput(error, logger));
    execution.end(false, Date.now());
    return undefined;
  }
  if (!kernel) {
    execution.end(undefined);
    return undefined;
  }
  const running = kernel;
  const cancel = execution.token.onCancellationRequested(() => void running.interrupt().catch((error: unknown) => logger.warn(`Notebook interrupt: ${error instanceof Error ? error.message : String(error)}`)));
  const outputs: CellOutputs = new (kernelCore().CellOutputs)();
  let drawn = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const draw = async (): Promise<void> => {
    timer = undefined;
    if (outputs.version === drawn) return;
    drawn = outputs.version;
    await execution.replaceOutput(notebookOutputs(outputs.view()));
  };
  try {
    const outcome = await kernel.execute(cell.document.getText(), outputs, () => {
      timer ??= setTimeout(() => void draw(), DRAW_MS);
    });
    if (timer !== undefined) clearTimeout(timer);
    await draw();
    if (outcome.status === 'lost') {
      // The kernel is idle but the run's end never came: say so under what did arrive.
      const note = vscode.l10n.t('The connection to the kernel dropped while this cell ran and its end never arrived: the output above may be incomplete. Run the cell again to see all of it.');
      await execution.appendOutput(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: PRODUCT, message: note })]));
      logger.warn('Notebook kernel: a cell ended unheard after the connection dropped');
    }
    execution.executionOrder = outcome.executionCount ?? undefined;
    execution.end(outcome.status === 'ok', Date.now());
    return outcome.status === 'error' ? outputs : undefined;
  } catch (error) {
    if (timer !== undefined) clearTimeout(timer);
    await execution.replaceOutput([...notebookOutputs(outputs.view()), ...problemOutput(error, logger)]);
    execution.end(false, Date.now());
    return undefined;
  } finally {
    cancel.dispose();
  }
}

function problemOutput(error: unknown, logger: Logger): vscode.NotebookCellOutput[] {
  const core = kernelCore();
  const message = error instanceof core.JupyterConnectionError ? problemText(error.problem, error.status) : error instanceof Error ? error.message : String(error);
  logger.warn(`Notebook kernel: ${error instanceof Error ? error.message : String(error)}`);
  return [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: PRODUCT, message })])];
}
