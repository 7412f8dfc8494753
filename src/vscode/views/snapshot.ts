// Reads a tree the way the workbench does (getChildren → getTreeItem), down to a depth, as plain rows.
import * as vscode from 'vscode';
import type { TreeRow } from './computeApi';

function labelText(label: vscode.TreeItem['label']): string {
  if (label === undefined) return '';
  return typeof label === 'string' ? label : label.label;
}

function tooltipText(tooltip: vscode.TreeItem['tooltip']): string | undefined {
  if (tooltip === undefined) return undefined;
  return typeof tooltip === 'string' ? tooltip : tooltip.value;
}

export async function snapshotTree<T>(provider: vscode.TreeDataProvider<T>, depth: number, parent?: T): Promise<TreeRow[]> {
  const children = (await provider.getChildren(parent)) ?? [];
  const rows: TreeRow[] = [];
  for (const child of children) {
    const item = await provider.getTreeItem(child);
    const row: TreeRow = {
      id: item.id,
      label: labelText(item.label),
      description: typeof item.description === 'string' ? item.description : undefined,
      contextValue: item.contextValue,
      icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
      tooltip: tooltipText(item.tooltip),
    };
    const expandable = item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None;
    if (expandable && depth > 1) row.children = await snapshotTree(provider, depth - 1, child);
    rows.push(row);
  }
  return rows;
}
