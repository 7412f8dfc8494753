// The image preheat area: the Image Preheat view (the generic kind tree over PREHEAT_KIND), its Refresh
// and Stop, and Preheat Image… (cluster mode, the platform's recommendation: the image is cached in the
// chosen regions; docs/platform.md "Image preheat"). The list is the store's (one poll loop); after an
// action the store is woken, never the tree.
import * as vscode from 'vscode';
import type { PreheatCreateBody, PreheatTask } from '../../core/preheat/operations';
import { preheatStoppable } from '../../core/preheat/preheatState';
import { Commands } from '../commandIds';
import { registerCommandTable, type CommandEntry } from '../commands/commandTable';
import { activeClientOf } from '../client/computeServices';
import { ImagePreheatService } from '../../core/preheat/preheatService';
import { createKindView, followKindNotices } from '../kinds/registerKind';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { MultiStepInput } from '../ui/multiStepInput';
import type { NotificationCenter } from '../ui/notificationCenter';
import { PREHEAT_KIND, preheatError } from './preheatKind';
import { PreheatOffers } from './preheatOffers';
import { preheatName } from '../../core/preheat/preheatFollow';

export interface PreheatApi {
  /** The rows of the view as shown, and its message line. */
  snapshot(): Promise<{ message: string | undefined; rows: { id: number; label: string; description: string; contextValue: string }[]; error: string | undefined }>;
  refresh(): Promise<void>;
  /** Creates a cluster preheat of `image` in `regions` (what Preheat Image… sends); resolves its id. */
  create(image: string, regions: readonly string[], name?: string): Promise<number>;
  /** Stops a preheat without the confirmation (the command asks first). */
  stop(taskId: number): Promise<void>;
  /** The one preheat service behind the Preheat offers (spec CodeLens, New GPU Kernel, Deploy a Model). */
  readonly offers: PreheatOffers;
}

/** What the spec CodeLens *Preheat* passes: the spec's images and its resource's region. */
interface PreheatTarget {
  images?: unknown;
  region?: unknown;
}

/** A preheat call with the kind's error row wording (not enabled → what to do). */
async function preheatCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw preheatError(error) ?? error;
  }
}

const IMAGE = /^[^\s]{1,512}$/;

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerPreheat(services: ExtensionServices, state: RemoteState, center: NotificationCenter, own: vscode.Disposable[] = []): { api: PreheatApi; disposables: vscode.Disposable[] } {
  const { tree } = createKindView(services, state, PREHEAT_KIND, own);
  own.push(followKindNotices(state, center, PREHEAT_KIND, services));
  // The kind's service, built here: no other area calls it (CONTRIBUTING "Add a kind of remote state").
  const service = new ImagePreheatService(activeClientOf(services), () => state.wake());

  async function create(image: string, regions: readonly string[], name?: string): Promise<number> {
    const body: PreheatCreateBody = {
      task_name: name ?? preheatName(image),
      regions: regions.map((region) => ({ region })),
      services: [{ service_name: 'main', service_image: image }],
    };
    return preheatCall(() => service.create(body));
  }

  async function stop(taskId: number): Promise<void> {
    await preheatCall(() => service.stop(taskId));
  }

  async function preheatImage(): Promise<void> {
    const regions = await preheatCall(() => service.regions());
    const all = { label: vscode.l10n.t('All regions'), description: regions.map((region) => region.region_name).join(', '), regions: regions.map((region) => region.region) };
    const items = [all, ...regions.map((region) => ({ label: region.region_name, description: region.region, regions: [region.region] }))];
    let image = '';
    let chosen: readonly string[] = [];
    const finished = await MultiStepInput.run(async (input) => {
      image = (
        await input.showInputBox({
          title: vscode.l10n.t('Preheat Image'),
          step: 1,
          totalSteps: 2,
          value: image,
          prompt: vscode.l10n.t('The image to cache ahead of tasks, e.g. registry.example.com/team/app:1.0'),
          validate: (value) => (IMAGE.test(value.trim()) ? undefined : vscode.l10n.t('An image reference without spaces')),
        })
      ).trim();
      return async (next) => {
        chosen = (await next.showQuickPick({ title: vscode.l10n.t('Preheat Image'), step: 2, totalSteps: 2, items, placeholder: vscode.l10n.t('Regions whose image cache gets it') })).regions;
      };
    });
    if (!finished || chosen.length === 0) return;
    const id = await create(image, chosen);
    void vscode.window.showInformationMessage(vscode.l10n.t('Image preheat {0} started; the Image Preheat view follows it.', id));
  }

  const offers = new PreheatOffers(() => service, center, services.reportError, services.logger);

  /** Preheat (the spec CodeLens): the spec's image (picked when it has several) in its region. */
  async function preheatOffer(target?: unknown): Promise<void> {
    const given = (target ?? {}) as PreheatTarget;
    const images = Array.isArray(given.images) ? given.images.filter((image): image is string => typeof image === 'string' && IMAGE.test(image)).slice(0, 8) : [];
    const region = typeof given.region === 'string' ? given.region : undefined;
    if (images.length === 0) return preheatImage();
    const image = images.length === 1 ? images[0] : (await vscode.window.showQuickPick(images, { title: vscode.l10n.t('Preheat Image'), placeHolder: vscode.l10n.t('The image to cache ahead of tasks') }));
    if (image === undefined) return;
    await offers.preheat(image, region === undefined ? [] : [region]);
  }

  const entries: CommandEntry<void>[] = [
    { id: Commands.preheatRefresh, doing: vscode.l10n.t('Load image preheats'), create: () => () => tree.refresh() },
    { id: Commands.preheatCreate, doing: vscode.l10n.t('Preheat image'), create: () => () => preheatImage() },
    { id: Commands.preheatOffer, doing: vscode.l10n.t('Preheat image'), create: () => (target?: unknown) => preheatOffer(target) },
    {
      id: Commands.preheatStop,
      doing: vscode.l10n.t('Stop image preheat'),
      create: () => async (target?: unknown) => {
        const task: PreheatTask | undefined = await tree.pick(target, vscode.l10n.t('Pick a preheat to stop'), preheatStoppable);
        if (!task) return;
        const confirm = vscode.l10n.t('Stop Preheat');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('Stop image preheat "{0}" ({1})?', task.task_name, task.task_id),
          { modal: true, detail: vscode.l10n.t('The cached image stays where it is; a stopped preheat cannot be resumed.') },
          confirm,
        );
        if (answer === confirm) await stop(task.task_id);
      },
    },
  ];

  const api: PreheatApi = {
    snapshot: async () => {
      await tree.data.ensureLoaded();
      const loadState = tree.data.state;
      const error = loadState.kind === 'failed' ? tree.errorOf(loadState.error) : undefined;
      return {
        message: tree.message(),
        error: error instanceof Error ? error.message : undefined,
        rows: tree.rows().map((row) => ({ id: row.item.task_id, label: String(row.label), description: String(row.description ?? ''), contextValue: String(row.contextValue) })),
      };
    },
    refresh: () => tree.refresh(),
    create,
    stop,
    offers,
  };
  own.push(...registerCommandTable(entries, undefined, services.reportError));
  return { api, disposables: own };
}
