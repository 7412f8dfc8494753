// Drives Create Transfer… and Retry as a user would (answerFlow: step by step, Back included) and records
// what each step showed: numbers, titles, password inputs, the review and what it highlighted.

import type * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import type { TransferAsker } from '../../../src/vscode/nas/index';
import { answerFlow, isPick, pressBack } from './answerFlow';

export interface Bucket {
  supplier: string;
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
}

/** Answers the stop / delete questions with `confirmWith`, recording what was asked. */
export class ScriptedAsker implements TransferAsker {
  readonly confirmations: { message: string; detail: string }[] = [];
  constructor(private readonly confirmWith = true) {}
  async confirm(message: string, detail: string): Promise<boolean> {
    this.confirmations.push({ message, detail });
    return this.confirmWith;
  }
}

/** The answers of Create Transfer's steps (1 direction … 11 secret key, 12 review), by step number. */
export type CreateAnswers = Partial<Record<'direction' | 'supplier' | 'endpoint' | 'bucket' | 'prefix' | 'nasPath' | 'name' | 'accessKey' | 'secretKey', string>>;

export interface FlowRecord {
  steps: number[];
  titles: string[];
  totals: (number | undefined)[];
  password: Record<number, boolean>;
  /** What the review listed, and which item it highlighted when it opened. */
  review: { label: string; detail?: string }[];
  reviewActive?: string;
  /** The endpoint step's value when Back brought it again. */
  backTo?: string;
}

/**
 * Drives a transfer flow (create: 12 steps; retry: 3) to its end: `fields` by step, `decide` at the review.
 * `back`: at the bucket step (create) type the access key there by mistake, press Back, and carry on.
 */
export function driveTransfer(api: ExtensionApi, flow: () => Thenable<number | undefined>, fields: (step: number) => string | undefined, decide: 'go' | 'cancel' | 'enter', back = false): Promise<{ result: number | undefined; seen: FlowRecord }> {
  const seen: FlowRecord = { steps: [], titles: [], totals: [], password: {}, review: [] };
  let backState: 'before' | 'pressed' | 'done' = back ? 'before' : 'done';
  const reviewOpened = new Set<vscode.QuickInput>();
  return answerFlow(api, flow, async (input) => {
    const step = input.step ?? 0;
    if (!seen.steps.includes(step)) {
      seen.steps.push(step);
      seen.titles.push(input.title ?? '');
      seen.totals.push(input.totalSteps);
    }
    if (isPick(input)) {
      const items = input.items as (vscode.QuickPickItem & { go?: boolean })[];
      if (items.some((item) => item.go !== undefined)) {
        if (!reviewOpened.has(input)) {
          reviewOpened.add(input);
          seen.reviewActive = input.activeItems[0]?.label;
          seen.review = items.map((item) => ({ label: item.label, ...(item.description || item.detail ? { detail: `${item.description ?? ''} ${item.detail ?? ''}` } : {}) }));
        }
        if (decide === 'enter') return;
        const wanted = items.find((item) => item.go === (decide === 'go'));
        if (wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
        return;
      }
      const text = fields(step);
      const wanted = text === undefined ? undefined : items.find((item) => item.label.includes(text));
      if (wanted && input.activeItems[0] !== wanted) input.activeItems = [wanted];
      return;
    }
    seen.password[step] = input.password;
    if (backState === 'before' && step === 4) {
      // The access key typed into the bucket step by mistake: Back (as the title bar's arrow does).
      // (with a space, which the bucket step refuses: an Enter racing the Back cannot move on with it)
      input.value = `${fields(10) ?? 'AKIA'} pasted-here`;
      backState = 'pressed';
      await pressBack(api, input);
      return;
    }
    if (backState === 'pressed') {
      if (step === 4) {
        input.value = ''; // refused on Enter: the step stays until Back has taken effect
        return;
      }
      if (step === 3) {
        seen.backTo = input.value;
        backState = 'done';
      }
    }
    const text = fields(step);
    if (text !== undefined && input.value !== text) input.value = text;
  }).then((result) => ({ result, seen }));
}
