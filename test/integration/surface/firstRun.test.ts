// A first run that lands: the walkthrough opens once (a stored flag), never over someone who
// already has a profile; and the extension's key chords are free in this VS Code's default keybindings.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { silentLogger } from '../../../src/core/log';
import { openComputeWalkthrough, openWalkthroughOnFirstRun } from '../../../src/vscode/firstRun';
import { PersistedState } from '../../../src/vscode/persistedState';
import { EXTENSION_ID, extensionApi } from '../extensionApi';
import { PATIENCE_MS } from '../../helpers/eventually';

class MemoryMemento {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

/** "ctrl+alt+shift+a" and "ctrl+shift+alt+a" are one chord: modifiers in a fixed order. */
function normaliseChord(chord: string): string {
  return chord
    .toLowerCase()
    .split(' ')
    .map((part) => {
      const keys = part.split('+');
      const key = keys.pop() ?? '';
      return [...keys.sort(), key].join('+');
    })
    .join(' ');
}

const allTabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs);

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('surface: first run', () => {
  before(async () => {
    await extensionApi();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the Compute walkthrough on the first activation and never again', async () => {
    const state = new PersistedState(new MemoryMemento(), silentLogger);
    let opened = 0;
    const host = { state, hasProfile: () => false, openWalkthrough: () => { opened++; return openComputeWalkthrough(EXTENSION_ID); } };
    const before = new Set(allTabs().map((tab) => tab.label));
    assert.equal(await openWalkthroughOnFirstRun(host), true);
    const tab = await waitFor('the walkthrough tab', () => allTabs().find((t) => !before.has(t.label)));
    const labels = allTabs().map((t) => t.label).join(', ');
    assert.match(tab.label, /Compute Toolkit|Walkthrough|Welcome|开始使用/, `tabs: ${labels}`);
    assert.equal(await openWalkthroughOnFirstRun(host), false);
    assert.equal(await openWalkthroughOnFirstRun(host), false);
    assert.equal(opened, 1);
  });

  it('does not open over someone who already has a profile, and does not ask again', async () => {
    const state = new PersistedState(new MemoryMemento(), silentLogger);
    let opened = 0;
    const host = { state, hasProfile: () => true, openWalkthrough: () => { opened++; return Promise.resolve(); } };
    assert.equal(await openWalkthroughOnFirstRun(host), false);
    assert.equal(await openWalkthroughOnFirstRun({ ...host, hasProfile: () => false }), false);
    assert.equal(opened, 0);
  });

  it('binds chords that no default keybinding of this VS Code uses', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { keybindings: { command: string; key: string }[] };
    };
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const document = await waitFor('the default keybindings', () => {
      const doc = vscode.window.activeTextEditor?.document;
      return doc && /keybindings\.json$/i.test(doc.uri.path) ? doc : undefined;
    });
    const bound = new Map<string, string[]>();
    for (const match of document.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)) {
      const key = normaliseChord(match[1]!);
      bound.set(key, [...(bound.get(key) ?? []), match[2]!]);
    }
    assert.ok(bound.size > 300, `only ${bound.size} chords parsed from the default keybindings: the parse is broken`);
    for (const { command, key } of manifest.contributes.keybindings) {
      const users = bound.get(normaliseChord(key)) ?? [];
      assert.ok(users.includes(command), `${command} is not listed under ${key}: the parse is broken`);
      const others = users.filter((other) => other !== command && !other.startsWith('-') && !other.startsWith('computeToolkit.'));
      const free = [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => `ctrl+alt+shift+${letter}`).filter((chord) => !bound.has(normaliseChord(chord)));
      assert.deepEqual(others, [], `${key} (${command}) is also VS Code's ${others.join(', ')}; free: ${free.join(' ')}`);
    }
  });
});
