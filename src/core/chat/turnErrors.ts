// What the chat needs set up before a reply: a model API key, a profile, a model. Setup errors, so the
// one classification (core/errors/classify.ts) names the step that fixes each; the editor words the turn
// (src/vscode/errors/renderers.ts). The messages here are the log's.

import { SetupError } from '../errors';

/** No model API key is stored for the active profile (checked before any request is made). */
export class MissingModelKeyError extends SetupError {
  constructor(profileLabel: string) {
    super('modelApiKey', profileLabel, `Profile "${profileLabel}" has no model API key. Set one to chat with the hosted models.`);
  }
}

export class NoChatProfileError extends SetupError {
  constructor() {
    super('profile', undefined, 'No compute profile is active. Create one, or connect to the local sandbox to try the chat.');
  }
}

export class NoChatModelError extends SetupError {
  constructor(reason: string) {
    super('chatModel', undefined, `No chat model is selected: ${reason}`);
  }
}
