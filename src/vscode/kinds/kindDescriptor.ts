// A kind of remote state as the editor shows it (CONTRIBUTING "Add a kind of remote state"): the store
// definition it follows, its view, how one item reads as a row, and which changes become notifications.
// One generic tree (kindTree.ts) and one notification path (kindNotices.ts) read descriptors; a kind
// adds a descriptor, never a tree or a notifier of its own.
import type * as vscode from 'vscode';
import type { ComputeClient } from '../../core/compute/api';
import type { StateChange, StateDefinition } from '../../core/state/definition';
import type { CommandId } from '../commandIds';
import type { Profile } from '../services';
import type { NotificationAction, NotificationKind, Severity } from '../ui/notificationCenter';

/** One item as a tree row. Server text goes into `tooltip` through a MarkdownString's appendText. */
export interface KindRow {
  id: string;
  label: string;
  description?: string;
  icon: vscode.ThemeIcon;
  tooltip?: vscode.MarkdownString | string;
  /** What the row's menus match (`view/item/context` `when` clauses). */
  contextValue: string;
  /** What a click on the row runs (NAS: an Active volume opens in the Explorer). */
  command?: vscode.Command;
}

/**
 * A second kind shown inside a kind's view as one expanded group row (NAS's Transfers): its rows, its own
 * error row, a row when it is empty and one when the listing was cut.
 */
export interface KindGroup<Item> {
  readonly kind: KindDescriptor<Item>;
  /** The group's row; `items` undefined before the store's first look. */
  row(items: readonly Item[] | undefined): KindRow;
  /** The row shown instead of items when there are none (with the command that makes one). */
  empty(): Omit<KindRow, 'id' | 'icon' | 'contextValue'>;
  /** The row after the items when the listing stopped at its cap. */
  incomplete(): string;
}

/**
 * A list shown in a kind's view that is no remote state moving on its own (the Machines view's Orders and
 * Catalogue): a collapsed row whose entries are read when it is opened and kept until its owner forgets
 * them (Refresh, a filter); nothing polls it. Its error row is the shared one (the error-action table).
 */
export interface KindSection<Entry> {
  /** The row's id, also the prefix of its empty and "more" rows' ids. */
  readonly id: string;
  /** The collapsed row, drawn afresh on each render (a description that follows a filter). */
  row(): Omit<KindRow, 'id'>;
  /** What the section loads, in the display language, for its error row. */
  what(): string;
  read(): Promise<readonly Entry[]>;
  entryRow(entry: Entry): KindRow;
  /** The row shown instead of entries when there are none. */
  empty(): string;
  /** At most `count` rows are shown, then one saying how many more (`more`). */
  readonly limit?: { count: number; more(hidden: number): string };
  /** Fires when what `read` gives changed (a filter, a forget): the view draws again. */
  readonly onDidChange?: vscode.Event<unknown>;
  /**
   * The kind's items an entry holds (an order's machines), from what the store holds now: shown under the
   * entry as the kind's own rows (their menus work there too).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the items are the descriptor's own item type
  members?(entry: Entry, items: readonly any[]): readonly any[];
}

/** A notification a change of the kind gives, shown through the one NotificationCenter. */
export interface KindNotice {
  kind: NotificationKind;
  severity: Severity;
  message: string;
  actions: NotificationAction[];
}

export interface KindDescriptor<Item, Key = unknown> {
  /** The store definition (core), listed on each watched profile's one poll loop. */
  readonly state: StateDefinition<Item, Key, ComputeClient>;
  /** The view that lists the kind (`Views` in commandIds.ts). */
  readonly viewId: string;
  /** The view's refresh command: the error row's Retry. */
  readonly refreshCommand: CommandId;
  /** What the view loads, in the display language ("jobs"), for its loading and error rows. */
  what(): string;
  /** The view's line when the list is empty; undefined lets the view's welcome content show. */
  emptyText(): string | undefined;
  /** The rows' order (the store's order when absent). */
  order?(items: readonly Item[]): Item[];
  row(item: Item, now: number): KindRow;
  /**
   * The error row: a failure of this kind the shared rows cannot word alone, as an error they can (a
   * ConfigError saying what to do); the row's button still comes from the error-action table.
   */
  errorOf?(error: unknown): unknown;
  /** Rows above the items (NAS's summary), read once per change of the items, never polled on their own. */
  lead?(): Promise<KindRow[]>;
  /** Other kinds shown in this view as group rows after the items. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group is a kind of its own item type
  readonly groups?: readonly KindGroup<any>[];
  /** Lists read on opening (not remote state), as collapsed rows after the groups; shown even when the items failed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each section lists entries of its own type
  readonly sections?: readonly KindSection<any>[];
  /** The notifications one change of the store gives (any watched profile; `own` for the active one). */
  notices?(change: StateChange<Item>, profile: Profile, own: boolean): KindNotice[];
}
