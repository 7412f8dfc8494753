// Preheat offered where a start is slow (docs/platform.md "Image preheat"): the one preheat service behind
// the spec CodeLens *Preheat*, New GPU Kernel… and Deploy a Model…. It caches an image in a region's image
// cache (cluster mode, the platform's recommendation) with progress per region, says "not enabled" with
// what to do (preheatKind.ts), and after a start says how long it took — with *Preheat* offered when the
// image was not preheated, so the next start is faster.

import * as vscode from 'vscode';
import { preheatAndFollow, type PreheatFollowed, type RegionProgress, type StartTook } from '../../core/preheat/preheatFollow';
import type { ImagePreheatService } from '../../core/preheat/preheatService';
import { abortSignalFor } from '../ui/cancellation';
import { durationText } from '../ui/duration';
import { plain, type NotificationCenter } from '../ui/notificationCenter';
import { preheatError } from './preheatKind';

/** The longest image reference offered (the platform takes one service image string). */
const MAX_IMAGE = 512;

function cacheWord(status: RegionProgress['status']): string {
  if (status === 'Completed') return vscode.l10n.t('preheated');
  if (status === 'Syncing') return vscode.l10n.t('preheating');
  return vscode.l10n.t('waiting');
}

/** "北京酒仙桥t1: preheating · 腾讯社区t1: preheated". */
export function regionsText(regions: readonly RegionProgress[]): string {
  return regions.map((region) => `${plain(region.regionName, 40)}: ${cacheWord(region.status)}`).join(' · ');
}

export class PreheatOffers {
  /** Images preheated this session, by image (a start of one of them says so). */
  private readonly preheated = new Map<string, PreheatFollowed>();
  /** The preheats this service ran this session, oldest first (the in-host tests read them). */
  readonly runs: PreheatFollowed[] = [];
  /** The wait between looks: the platform's floor; the in-host tests drive it instead of waiting. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  constructor(
    private readonly service: () => ImagePreheatService,
    private readonly center: NotificationCenter,
    private readonly reportError: (error: unknown, context: string) => void,
    private readonly logger: { info(line: string): void },
  ) {}

  /**
   * Preheats `image` in `regions` (all preheat regions when none of them is one), with a notification
   * showing each region's cache until done (cancelling stops following, not the preheat). Refused with
   * what to do when the account has not applied for image preheat.
   */
  async preheat(image: string, regions: readonly string[] = []): Promise<PreheatFollowed | undefined> {
    const shown = plain(image, 120);
    if (image.length === 0 || image.length > MAX_IMAGE || /\s/.test(image)) throw new RangeError(vscode.l10n.t('Not an image reference: "{0}"', shown));
    let followed: PreheatFollowed;
    try {
      followed = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Preheating {0}', shown), cancellable: true },
        (progress, token) =>
          preheatAndFollow(this.service(), image, {
            regions,
            wait: this.wait,
            signal: abortSignalFor(token),
            onProgress: (now) => progress.report({ message: regionsText(now) }),
          }),
      );
    } catch (error) {
      throw preheatError(error) ?? error;
    }
    this.runs.push(followed);
    this.logger.info(`Preheat: image preheat ${followed.taskId} done=${String(followed.done)} after ${followed.elapsedMs} ms.`);
    if (!followed.done) {
      this.center.show('preheatOffer', 'info', vscode.l10n.t('Image preheat {0} of {1} goes on; the Image Preheat view follows it ({2}).', followed.taskId, shown, regionsText(followed.regions)));
      return followed;
    }
    this.preheated.set(image, followed);
    this.center.show('preheatOffer', 'info', vscode.l10n.t('{0} is preheated ({1}; took {2}): starts from it skip the image pull there.', shown, regionsText(followed.regions), durationText(followed.elapsedMs / 1000)));
    return followed;
  }

  /** After a start: how long it took, and Preheat offered when the image was not preheated this session. */
  startTook(start: StartTook): void {
    const took = durationText(start.ms / 1000);
    const what = plain(start.what, 80);
    if (this.preheated.has(start.image)) {
      this.center.show('preheatOffer', 'info', vscode.l10n.t('{0} started in {1} (its image was preheated).', what, took));
      return;
    }
    this.center.show('preheatOffer', 'info', vscode.l10n.t('{0} started in {1}. Preheat its image {2} to start faster next time?', what, took, plain(start.image, 120)), [
      {
        title: vscode.l10n.t('Preheat'),
        run: () => this.preheat(start.image, start.region === undefined ? [] : [start.region]).then(undefined, (error: unknown) => this.reportError(error, vscode.l10n.t('Preheat image'))),
      },
    ]);
  }
}
