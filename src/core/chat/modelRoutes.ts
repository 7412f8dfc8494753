// Models the chat can ask besides the active profile's hosted ones — a user's own deployments
// (docs/deployments.md): what the pickers list (with why one cannot answer), and where a request for one
// goes. The chat asks the routes first; a model id they do not know goes to the profile's model API.

import type { ModelClient, Usage } from '../inference/api';
import type { DeployedModelOption, TurnCost } from '../../shared/protocol';

export interface RoutedModel {
  client: ModelClient;
  /** The id the server knows the model by. */
  model: string;
  /** Called when the request is sent (idle tracking). */
  started?(): void;
  /** The reply ended after `durationMs`; returns its approximate cost, shown under the reply. */
  finished?(durationMs: number, usage: Usage | undefined): TurnCost | undefined;
}

export interface ModelRoutes {
  /** Deployed models for the pickers (unavailable ones say why). */
  options(): DeployedModelOption[];
  /**
   * Where a request for `modelId` goes: undefined when the id is not one of these routes' (the profile's
   * model API answers it); throws with the reason when it is one but cannot answer now (paused, ended).
   */
  route(modelId: string): Promise<RoutedModel | undefined>;
}
