// The one tree of a kind of remote state: its rows come from the remote-state store (the profile's one
// poll loop) through the kind's descriptor; loading, the empty line and the error row are the shared
// ones of every RemoteTree (trees/treeMessages.ts: the error-action table's button, never the raw error).
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { RemoteTree } from '../trees/remoteTree';
import { ErrorRow, viewMessage } from '../trees/treeMessages';
import type { KindDescriptor } from './kindDescriptor';

/** A row of a kind: the item it shows, for the commands its menus run. */
export class KindItem<Item> extends vscode.TreeItem {
  readonly kind = 'item' as const;
  constructor(
    readonly item: Item,
    descriptor: KindDescriptor<Item>,
    now: number,
  ) {
    const row = descriptor.row(item, now);
    super(row.label, vscode.TreeItemCollapsibleState.None);
    this.id = row.id;
    this.description = row.description;
    this.iconPath = row.icon;
    this.tooltip = row.tooltip;
    this.contextValue = row.contextValue;
  }
}

export type KindElement<Item> = KindItem<Item> | ErrorRow;

export class KindTree<Item> extends RemoteTree<readonly Item[], KindElement<Item>> {
  /** The next load polls now (Refresh) instead of taking what the store holds. */
  private forceNextLoad = false;

  constructor(
    services: ExtensionServices,
    private readonly state: RemoteState,
    readonly descriptor: KindDescriptor<Item>,
  ) {
    super(services, descriptor.viewId, () => this.load());
    const isActive = (profileId: string): boolean => profileId === services.profiles.active?.id;
    this.disposables.push(
      // The store's poll reaches the view first (before notifications hear of the same change).
      state.follow(
        descriptor.state,
        (change, profile) => {
          if (isActive(profile.id) && !this.data.loading) this.data.accept(change.items);
        },
        'view',
        (error, profile) => {
          if (isActive(profile.id) && !this.data.loading) this.data.fail(error);
        },
      ),
      services.profiles.onDidChangeActive(() => this.reset()),
    );
  }

  private async load(): Promise<readonly Item[]> {
    if (!this.services.profiles.active) return [];
    const force = this.forceNextLoad;
    this.forceNextLoad = false;
    if (force) await this.state.refresh();
    else if (!this.state.store(this.descriptor.state)?.loaded) await this.state.look();
    const store = this.state.store(this.descriptor.state);
    if (store?.error !== undefined) throw store.error;
    return store?.items ?? [];
  }

  /** Refresh pressed: the store lists now; a failure shows in the view and reaches the caller. */
  override async refresh(): Promise<void> {
    this.forceNextLoad = true;
    await super.refresh();
    const state = this.data.state;
    if (state.kind === 'failed') throw state.error;
  }

  /** The items as the view shows them, in its order. */
  get items(): readonly Item[] {
    const items = this.data.value ?? [];
    return this.descriptor.order ? this.descriptor.order(items) : items;
  }

  rows(): KindItem<Item>[] {
    const now = Date.now();
    return this.items.map((item) => new KindItem(item, this.descriptor, now));
  }

  /** The item a command was given: a row of this view, or a key (a palette or API call). */
  itemOf(target: unknown): Item | undefined {
    if (target instanceof KindItem) return target.item as Item;
    if (target === undefined) return undefined;
    return this.items.find((item) => this.descriptor.state.key(item) === target);
  }

  /** The item a command acts on: its argument, else one the user picks from the view's rows. */
  async pick(target: unknown, title: string, filter: (item: Item) => boolean = () => true): Promise<Item | undefined> {
    const given = this.itemOf(target);
    if (given !== undefined || target !== undefined) return given;
    await this.data.ensureLoaded();
    const choices = this.rows()
      .filter((row) => filter(row.item))
      .map((row) => ({ label: String(row.label), description: String(row.description ?? ''), row }));
    return (await vscode.window.showQuickPick(choices, { title }))?.row.item;
  }

  /** A failure as the kind words it (its descriptor's error row), else as it came. */
  errorOf(error: unknown): unknown {
    return this.descriptor.errorOf?.(error) ?? error;
  }

  message(): string | undefined {
    if (!this.services.profiles.active) return undefined;
    const emptyText = this.descriptor.emptyText();
    const state = this.data.state;
    const shown = state.kind === 'failed' ? { ...state, error: this.errorOf(state.error) } : state;
    return viewMessage(shown, this.descriptor.what(), this.services.redactor, (items) => items.length === 0, emptyText ?? '') || undefined;
  }

  async getChildren(element?: KindElement<Item>): Promise<KindElement<Item>[]> {
    if (element || !this.services.profiles.active) return [];
    await this.data.ensureLoaded();
    const state = this.data.state;
    if (state.kind === 'failed' && !state.stale) return [new ErrorRow(this.errorOf(state.error), this.descriptor.what(), this.descriptor.refreshCommand, this.services.redactor)];
    return this.rows();
  }
}
