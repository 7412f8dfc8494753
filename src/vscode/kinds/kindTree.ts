// The one tree of a kind of remote state: its rows come from the remote-state store (the profile's one
// poll loop) through the kind's descriptor; loading, the empty line and the error row are the shared
// ones of every RemoteTree (trees/treeMessages.ts: the error-action table's button, never the raw error).
// A descriptor may add rows above the items (`lead`) and other kinds as group rows after them (`groups`).
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { RemoteTree } from '../trees/remoteTree';
import { ErrorRow, InfoRow, viewMessage } from '../trees/treeMessages';
import type { KindDescriptor, KindGroup, KindRow, KindSection } from './kindDescriptor';

function showRow(item: vscode.TreeItem, row: KindRow): void {
  item.id = row.id;
  item.description = row.description;
  item.iconPath = row.icon;
  item.tooltip = row.tooltip;
  item.contextValue = row.contextValue;
  if (row.command) item.command = row.command;
}

/** A row of a kind: the item it shows, for the commands its menus run. */
export class KindItem<Item> extends vscode.TreeItem {
  readonly kind = 'item' as const;
  /** The store definition's kind name ('volumes', 'transfers'): which kind's item this is. */
  readonly of: string;
  constructor(
    readonly item: Item,
    descriptor: KindDescriptor<Item>,
    now: number,
    /** Under another row (a section entry's members): its id first, so that the row's id stays unique. */
    parentId?: string,
  ) {
    const row = descriptor.row(item, now);
    super(row.label, vscode.TreeItemCollapsibleState.None);
    this.of = descriptor.state.kind;
    showRow(this, parentId === undefined ? row : { ...row, id: `${parentId}/${row.id}` });
  }
}

/** The item of `descriptor`'s kind a row shows, else undefined (a row of another kind, an id, a URI). */
export function itemOfKind<Item>(target: unknown, descriptor: KindDescriptor<Item>): Item | undefined {
  return target instanceof KindItem && target.of === descriptor.state.kind ? (target.item as Item) : undefined;
}

/** A row above the items (a descriptor's `lead`). */
export class KindLeadItem extends vscode.TreeItem {
  readonly kind = 'lead' as const;
  constructor(row: KindRow) {
    super(row.label, vscode.TreeItemCollapsibleState.None);
    showRow(this, row);
  }
}

/** Another kind as one expanded group row; its children are that kind's rows. */
export class KindGroupItem extends vscode.TreeItem {
  readonly kind = 'group' as const;
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group is a kind of its own item type
    readonly group: KindGroup<any>,
    items: readonly unknown[] | undefined,
  ) {
    const row = group.row(items);
    super(row.label, vscode.TreeItemCollapsibleState.Expanded);
    showRow(this, row);
  }
}

/** A section (a list read on opening, not remote state) as one collapsed row; its children are its entries. */
export class KindSectionItem extends vscode.TreeItem {
  readonly kind = 'section' as const;
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each section lists entries of its own type
    readonly section: KindSection<any>,
  ) {
    const row = section.row();
    super(row.label, vscode.TreeItemCollapsibleState.Collapsed);
    showRow(this, { ...row, id: section.id });
  }
}

/** One entry of a section, for the commands its menus run. */
export class KindEntryItem<Entry> extends vscode.TreeItem {
  readonly kind = 'entry' as const;
  /** The section's id: which section's entry this is. */
  readonly of: string;
  constructor(
    readonly entry: Entry,
    readonly section: KindSection<Entry>,
    /** How many of the kind's items it holds (section `members`): shown expanded under it. */
    members = 0,
  ) {
    const row = section.entryRow(entry);
    super(row.label, members > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    this.of = section.id;
    showRow(this, row);
  }
}

/** The entry of `section` a row shows, else undefined (another row, an id). */
export function entryOfSection<Entry>(target: unknown, section: KindSection<Entry>): Entry | undefined {
  return target instanceof KindEntryItem && target.of === section.id ? (target.entry as Entry) : undefined;
}

export type KindElement<Item> = KindItem<Item> | KindLeadItem | KindGroupItem | KindItem<unknown> | KindSectionItem | KindEntryItem<unknown> | InfoRow | ErrorRow;

export class KindTree<Item> extends RemoteTree<readonly Item[], KindElement<Item>> {
  /** The next load polls now (Refresh) instead of taking what the store holds. */
  private forceNextLoad = false;
  /** The descriptor's lead rows for the items now shown (read again after each change of them). */
  private leadRead: Promise<KindRow[]> | undefined;

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
          if (!isActive(profile.id)) return;
          if (change.first || change.added.length > 0 || change.changed.length > 0 || change.removed.length > 0) this.leadRead = undefined;
          if (!this.data.loading) this.data.accept(change.items);
        },
        'view',
        (error, profile) => {
          if (isActive(profile.id) && !this.data.loading) this.data.fail(error);
        },
      ),
      services.profiles.onDidChangeActive(() => this.reset()),
      // A group's store redraws the view (its rows are read from the store when shown).
      ...(descriptor.groups ?? []).map((group) =>
        state.follow(
          group.kind.state,
          (_change, profile) => {
            if (isActive(profile.id)) this.render();
          },
          'view',
          (_error, profile) => {
            if (isActive(profile.id)) this.render();
          },
        ),
      ),
      // A section that forgot or filtered its entries redraws the view (they are read again when shown).
      ...(descriptor.sections ?? []).flatMap((section) => (section.onDidChange ? [section.onDidChange(() => this.render())] : [])),
    );
  }

  override reset(): void {
    this.leadRead = undefined;
    super.reset();
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
    this.leadRead = undefined;
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
    if (!this.services.profiles.active) return [];
    if (element instanceof KindGroupItem) return this.groupChildren(element.group);
    if (element instanceof KindSectionItem) return this.sectionChildren(element.section);
    if (element instanceof KindEntryItem) return this.entryMembers(element);
    if (element) return [];
    await this.data.ensureLoaded();
    const state = this.data.state;
    // Sections do not come from the store: they show whatever the listing did.
    const sections = (this.descriptor.sections ?? []).map((section) => new KindSectionItem(section));
    if (state.kind === 'failed' && !state.stale) return [new ErrorRow(this.errorOf(state.error), this.descriptor.what(), this.descriptor.refreshCommand, this.services.redactor), ...sections];
    const lead = (await this.readLead()).map((row) => new KindLeadItem(row));
    // Fresh group rows each time: their descriptions are drawn from what the stores hold now.
    const groups = (this.descriptor.groups ?? []).map((group) => {
      const store = this.state.store(group.kind.state);
      return new KindGroupItem(group, store?.loaded ? store.items : undefined);
    });
    return [...lead, ...this.rows(), ...groups, ...sections];
  }

  /** A section's rows: its entries (at most its limit, then how many more), why there are none, or the shared error row. */
  private async sectionChildren<Entry>(section: KindSection<Entry>): Promise<KindElement<Item>[]> {
    let entries: readonly Entry[];
    try {
      entries = await section.read();
    } catch (error) {
      return [new ErrorRow(error, section.what(), this.descriptor.refreshCommand, this.services.redactor)];
    }
    if (entries.length === 0) return [new InfoRow(`${section.id}/empty`, section.empty())];
    const limit = section.limit;
    // One row per id, the first kept: the server may repeat an entry, and VS Code refuses a tree whose ids repeat.
    const shownIds = new Set<string>();
    entries = entries.filter((entry) => {
      const id = section.entryRow(entry).id;
      if (shownIds.has(id)) return false;
      shownIds.add(id);
      return true;
    });
    const rows: KindElement<Item>[] = (limit ? entries.slice(0, limit.count) : entries).map((entry) => new KindEntryItem(entry, section, section.members?.(entry, this.items).length ?? 0));
    if (limit && entries.length > limit.count) rows.push(new InfoRow(`${section.id}/more`, limit.more(entries.length - limit.count)));
    return rows;
  }

  /** The kind's rows an entry holds (section `members`), from the items the view shows now. */
  private entryMembers(element: KindEntryItem<unknown>): KindElement<Item>[] {
    const now = Date.now();
    const members = (element.section.members?.(element.entry, this.items) ?? []) as readonly Item[];
    return members.map((item) => new KindItem(item, this.descriptor, now, String(element.id)));
  }

  /** The lead rows, read once per change of the items (a failure is the descriptor's to word or drop). */
  private readLead(): Promise<KindRow[]> {
    const lead = this.descriptor.lead;
    if (!lead) return Promise.resolve([]);
    this.leadRead ??= lead.call(this.descriptor);
    return this.leadRead;
  }

  /** A group's rows from its store (its first look awaited): its error row, its items, or why there are none. */
  private async groupChildren<Other>(group: KindGroup<Other>): Promise<KindElement<Item>[]> {
    await this.state.items(group.kind.state);
    const store = this.state.store(group.kind.state);
    const kind = group.kind;
    if (store?.error !== undefined && !store.loaded) return [new ErrorRow(kind.errorOf?.(store.error) ?? store.error, kind.what(), kind.refreshCommand, this.services.redactor)];
    const items = store?.loaded ? (kind.order ? kind.order(store.items) : store.items) : [];
    if (items.length === 0) {
      const empty = group.empty();
      const row = new InfoRow(`${kind.state.kind}/empty`, empty.label);
      showRow(row, { id: row.id ?? '', icon: new vscode.ThemeIcon('info'), contextValue: 'info', ...empty });
      return [row];
    }
    const now = Date.now();
    const rows: KindElement<Item>[] = items.map((item) => new KindItem(item, kind, now));
    if (store && !store.completeness.complete) rows.push(new InfoRow(`${kind.state.kind}/incomplete`, group.incomplete()));
    return rows;
  }
}
