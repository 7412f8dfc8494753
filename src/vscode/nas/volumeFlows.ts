// Create NAS Volume… and Expand… as multi-step QuickPick / InputBox flows (ui/multiStepInput, Back and
// "Step n/N"): region and class from the platform's pre-create configs, name, size with its monthly price
// as the user types, then a review step naming the monthly price (old → new for an expand) whose Create /
// Expand item alone spends; Cancel, highlighted first (Enter), or Escape sends nothing.

import * as vscode from 'vscode';
import type { CreateChoice } from '../../core/nas/volumes';
import type { NasVolume } from '../../core/nas/operations';
import { BYTES_PER_GIB, formatGiB, formatYuan, monthlyPriceYuan } from '../../core/nas/units';
import type { VolumeService } from '../../core/nas/volumeService';
import { MultiStepInput } from '../ui/multiStepInput';
import { pickText } from '../ui/pickText';
import { nasCore } from './nasCore';
import { monthlyText } from './volumeKind';

const MAX_GIB = 1024 * 1024;

/** Why a volume name cannot be used, in words (core/nas/volumes.ts volumeNameProblem), or undefined. */
export function volumeNameText(text: string): string | undefined {
  switch (nasCore().volumeNameProblem(text)) {
    case undefined:
      return undefined;
    case 'dots':
      return vscode.l10n.t('"." and ".." cannot name a volume.');
    case 'characters':
      return vscode.l10n.t('No "/", "\\" or control characters in a volume name.');
    default:
      return vscode.l10n.t('Use 1 to 32 characters.');
  }
}

function gibProblem(text: string, minGiB: number): string | undefined {
  const gib = Number(text);
  return text.trim() !== '' && Number.isFinite(gib) && gib > minGiB && gib <= MAX_GIB ? undefined : vscode.l10n.t('Enter a size in GiB larger than {0}.', minGiB);
}

/** Asks for region / class, name and size, shows the monthly price, and creates on Create; the new volume's id. */
export async function createVolumeFlow(volumes: VolumeService): Promise<number | undefined> {
  const choices = await volumes.choices();
  if (choices.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No region has NAS capacity available now.'));
    return undefined;
  }
  const title = vscode.l10n.t('Create NAS Volume');
  const at = (step: number) => ({ title, step, totalSteps: 4 });
  const state: { choice?: CreateChoice; name: string; size: string } = { name: '', size: '50' };
  let go = false;
  const finished = await MultiStepInput.run(async function pickConfig(input) {
    const items = choices.map((c) => ({
      label: `${c.config.region.name} · ${c.config.storage_class_name}`,
      description: vscode.l10n.t('¥{0}/GB/month', c.config.display_unit_price),
      detail: vscode.l10n.t('{0} GiB free', formatGiB(c.freeBytes)),
      choice: c,
    }));
    const picked = await input.showQuickPick({ ...at(1), items, placeholder: vscode.l10n.t('Region and storage class'), activeItem: items.find((i) => i.choice === state.choice) });
    state.choice = picked.choice;
    return async function askName(input) {
      state.name = await input.showInputBox({
        ...at(2),
        value: state.name,
        prompt: vscode.l10n.t('Volume name (1–32 characters)'),
        validate: volumeNameText,
      });
      return async function askSize(input) {
        const price = (state.choice as CreateChoice).config.display_unit_price;
        state.size = await input.showInputBox({
          ...at(3),
          value: state.size,
          prompt: vscode.l10n.t('Size in GiB'),
          validate: (text) => gibProblem(text, 0),
          note: (text) => {
            const monthly = monthlyText(Math.round(Number(text) * BYTES_PER_GIB), price);
            return monthly ? { severity: 'info', text: vscode.l10n.t('It costs about {0} while it exists.', monthly) } : undefined;
          },
        });
        return async function review(input) {
          const bytes = Math.round(Number(state.size) * BYTES_PER_GIB);
          const monthly = monthlyText(bytes, price) ?? '?';
          go = await input.showReview({
            ...at(4),
            go: {
              label: vscode.l10n.t('$(add) Create NAS volume "{0}" ({1} GiB, {2})', pickText(state.name.trim()), formatGiB(bytes), `${(state.choice as CreateChoice).config.region.name} · ${(state.choice as CreateChoice).config.storage_class_name}`),
              detail: vscode.l10n.t('It costs about {0} while it exists.', monthly),
            },
            placeholder: vscode.l10n.t('Review: pick Create, or Cancel'),
          });
        };
      };
    };
  });
  if (!finished || !go || !state.choice) return undefined;
  const created = await volumes.create({ name: state.name.trim(), nasConfigId: state.choice.config.id, totalSize: Math.round(Number(state.size) * BYTES_PER_GIB) });
  return created.storage_id;
}

/** Asks for the new size, shows the monthly price before → after, and expands on Expand; true when sent. */
export async function expandVolumeFlow(volumes: VolumeService, volume: NasVolume): Promise<boolean> {
  const current = volume.total_size / BYTES_PER_GIB;
  const title = vscode.l10n.t('Expand NAS Volume "{0}"', volume.name);
  let size = String(Math.ceil(current * 2));
  let go = false;
  const priceChange = (bytes: number): string => {
    const before = monthlyPriceYuan(volume.total_size, volume.display_unit_price);
    const after = monthlyPriceYuan(bytes, volume.display_unit_price);
    return before !== undefined && after !== undefined ? vscode.l10n.t('Price per month: ¥{0} → ¥{1}.', formatYuan(before), formatYuan(after)) : '';
  };
  const finished = await MultiStepInput.run(async function askSize(input) {
    size = await input.showInputBox({
      title,
      step: 1,
      totalSteps: 2,
      value: size,
      prompt: vscode.l10n.t('New size in GiB (volumes only grow; now {0} GiB)', formatGiB(volume.total_size)),
      validate: (text) => gibProblem(text, current),
      note: (text) => {
        const change = priceChange(Math.round(Number(text) * BYTES_PER_GIB));
        return change ? { severity: 'info', text: change } : undefined;
      },
    });
    return async function review(input) {
      const bytes = Math.round(Number(size) * BYTES_PER_GIB);
      go = await input.showReview({
        title,
        step: 2,
        totalSteps: 2,
        go: { label: vscode.l10n.t('$(arrow-up) Expand "{0}" from {1} to {2} GiB', pickText(volume.name), formatGiB(volume.total_size), formatGiB(bytes)), detail: priceChange(bytes) },
        placeholder: vscode.l10n.t('Review: pick Expand, or Cancel'),
      });
    };
  });
  if (!finished || !go) return false;
  await volumes.expand(volume.storage_id, Math.round(Number(size) * BYTES_PER_GIB));
  return true;
}
