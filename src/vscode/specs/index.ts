// The specs area: task and job spec files in the editor (diagnostics, CodeLens, Validate / Plan /
// Deploy / Update / Open Live / Stop, Save as Spec File…, New Spec from Template…). The editor schema
// (schemas/compute-spec.editor.schema.json, docs/specs.md) is contributed in the manifest for completion and hover.

import * as vscode from 'vscode';
import { registerCommandTable } from '../commands/commandTable';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices as Services } from '../services';
import type { RemoteState } from '../state/index';
import type { ClientSource } from '../../core/state/servicePorts';
import { SPEC_COMMANDS } from './specCommands';
import { SpecActions } from './specActions';
import { SpecDocuments } from './specDocuments';
import { SpecSecrets } from './specSecrets';

/** What the in-host tests reach. */
export interface SpecsApi {
  readonly actions: SpecActions;
  readonly documents: SpecDocuments;
  readonly secrets: SpecSecrets;
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerSpecs(services: Services, state: RemoteState, client: ClientSource, own: vscode.Disposable[] = []): RegisteredArea<SpecsApi> {
  const documents = new SpecDocuments(vscode.Uri.joinPath(services.context.extensionUri, 'dist', 'specWorker.js').fsPath);
  own.push(documents);
  const secrets = new SpecSecrets(services.context.secrets, () => services.config.allowedEnvironmentVariables);
  const actions = new SpecActions(services, documents, secrets, state, client);
  own.push(...registerCommandTable(SPEC_COMMANDS, { services, actions, secrets }, services.reportError));
  return { api: { actions, documents, secrets }, disposables: own };
}
export { SpecSecrets } from './specSecrets';
export type { SpecsContext } from './specCommands';
