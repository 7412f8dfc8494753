// Drives a multi-step flow (Create Job…, Set Spec Secret…) in the real VS Code as a user would
// (test/integration/nas/answerFlow.ts), recording what each step showed: its counter, title and every
// text on it. The jobs and specs suites check the wizard style with it; the l10n suite reads the same
// steps in the display language.

import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { answerFlow, isPick, messageText, pressBack, type StepInput } from '../nas/answerFlow';

export interface SeenStep {
  step?: number;
  total?: number;
  title?: string;
  /** The box's value or the active row's label as the step opened (an answer kept shows here). */
  opened: string;
  /** Every text on the step: title, placeholder, prompt, rows, validation message. */
  texts: string[];
}

function seenStep(input: StepInput): SeenStep {
  const texts = [input.title ?? '', input.placeholder ?? ''];
  if (isPick(input)) texts.push(...input.items.flatMap((item) => [item.label, item.description ?? '', item.detail ?? '']));
  else texts.push(input.prompt ?? '', messageText(input.validationMessage));
  return { step: input.step, total: input.totalSteps, title: input.title, opened: isPick(input) ? (input.activeItems[0]?.label ?? '') : input.value, texts };
}

/** What to do at a step: take its default (Enter), type a value, pick a row by index, or press Back. */
export type Answer = { type: string } | { pick: number } | 'back' | undefined;

/**
 * Runs a flow started by `start` (a command) to its end. `answer` says what to do at each step by its
 * number and how many times it has been shown. The flow counts as ended when `start` settles, or when
 * the step `last` was answered and no step shows any more (Create Job waits on its "created" toast,
 * cleared afterwards).
 */
export async function driveFlow(api: ExtensionApi, start: () => Thenable<unknown>, last: number, answer: (step: number, visit: number, input: StepInput) => Answer): Promise<SeenStep[]> {
  const seen: SeenStep[] = [];
  const visits = new Map<number, number>();
  let answered: StepInput | undefined;
  let ended = false;
  await answerFlow(
    api,
    () =>
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (ended && api.surface.stepInput() === undefined) finish();
        }, 100);
        const finish = (): void => {
          clearInterval(poll);
          resolve();
        };
        void Promise.resolve(start()).then(finish, finish);
      }),
    async (input) => {
      if (input === answered) return; // accepted already: Enter again until the flow moves on
      answered = input;
      const step = input.step ?? 0;
      const visit = (visits.get(step) ?? 0) + 1;
      visits.set(step, visit);
      seen.push(seenStep(input));
      const what = answer(step, visit, input);
      if (what === 'back') {
        await pressBack(api, input);
        return;
      }
      if (what !== undefined && 'type' in what && !isPick(input)) input.value = what.type;
      if (what !== undefined && 'pick' in what && isPick(input)) {
        const item = input.items[what.pick];
        if (item) input.activeItems = [item];
      }
      if (step === last) ended = true;
    },
  );
  await vscode.commands.executeCommand('notifications.clearAll');
  return seen;
}
