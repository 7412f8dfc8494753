// Counted things read right in English: never "node(s)", and a "{0} nodes" always has its "{0} node"
// sibling (src/vscode/ui/counts.ts, docs/localization.md) — unless the count is known to be above one
// (listed below with why). The bundle is what the code exported, so this covers every l10n.t call.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const bundle = (): Record<string, string> => JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;

/** Nouns the extension counts. */
const NOUNS = ['node', 'job', 'task', 'file', 'volume', 'pod', 'completion', 'change', 'reset', 'problem', 'warning', 'value', 'model', 'attempt', 'GPU', 'transfer', 'day', 'minute', 'request', 'conversation', 'secret', 'key', 'item', 'row', 'line', 'entry'];
/** "{0} nodes", "{1} active tasks", "{2} running S3 transfers": a placeholder, up to two words, a plural noun. */
const COUNTED_PLURAL = new RegExp(`\\{(\\d+)\\}((?: [A-Za-z0-9]+){0,2}?) (${NOUNS.join('|')})s\\b`, 'g');

/** Counts that are never one where the string is used. */
const ABOVE_ONE = new Map<string, string>([
  ['Showing the first {0} of {1} active tasks', 'shown only when the list is cut: {1} > {0} ≥ 1'],
  ['Showing the first {0} of {1} nodes', 'shown only when the list is cut: {1} > {0} ≥ 1'],
  ['At most {0} nodes per task from here.', '{0} is the constant MAX_POINTS'],
  ['{0} days', 'the spend ranges 7 / 30 / 90 days'],
  ['Search all {0} conversations…', 'one has its own string (searchConversationsLabel)'],
  ['The timestamp is {0} minutes old: the platform accepts it only within 5 minutes (and once). Sign again for a fresh one.', 'said only beyond the 5-minute window'],
  ['The timestamp is {0} minutes in the future: the platform accepts it only within 5 minutes (and once). Sign again for a fresh one.', 'said only beyond the 5-minute window'],
]);

/** A placeholder before a plural that is not a count. */
const NOT_A_COUNT = new Map<string, string>([
  ['Rate: {0} while pods run', '{0} is a price'],
  ['No {0} tasks on profile "{1}".', '{0} is a list of statuses'],
]);

/** Every English key that fails the rule, with what is wrong. */
function pluralProblems(keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    if (/\w\((s|es)\)/.test(key.replace(/http\(s\)/g, ''))) problems.push(`${key} — "(s)": use counted() from src/vscode/ui/counts.ts`);
    if (ABOVE_ONE.has(key) || NOT_A_COUNT.has(key)) continue;
    for (const match of key.matchAll(COUNTED_PLURAL)) {
      // The singular sibling: the same text up to the noun, with the count as a placeholder or a literal 1
      // ("{0} env value that looks like…" for "{0} env values that look like…", "1 chat model listed.").
      const before = key.slice(0, match.index);
      const heads = [`{${match[1]}}`, '1'].map((count) => `${before}${count}${match[2]} ${match[3]}`);
      const paired = keys.some((other) => heads.some((head) => other.startsWith(head) && !/^[A-Za-z]/.test(other.slice(head.length))));
      if (!paired) problems.push(`${key} — "${match[0]}" without its singular ("${heads[0]}…")`);
    }
  }
  return problems;
}

describe('plurals: counted nouns take the form their count needs', () => {
  it('the exported bundle has no "(s)" and no plural without its singular', () => {
    assert.deepEqual(pluralProblems(Object.keys(bundle())), []);
  });

  it('the rule catches what issue 27 saw ("Transfers 1 jobs", "node(s)") and accepts pairs', () => {
    assert.equal(pluralProblems(['{0} jobs']).length, 1);
    assert.equal(pluralProblems(['Changing "{0}" to {1} node(s)…']).length, 1);
    assert.equal(pluralProblems(['"{0}" has {1} running S3 transfers; stop them.']).length, 1);
    assert.deepEqual(pluralProblems(['{0} jobs', '{0} job', '{0} → {1} nodes; x', '{0} → {1} node; x', '"{0}" is not an http(s) address.']), []);
  });
});
