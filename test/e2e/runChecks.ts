// Runs every browser check against one open workbench, never stopping at the first failure.
// Called by scripts/vscode-web/run.mjs (compiled to out/test/e2e/runChecks.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { SandboxBootstrap } from '../sandbox/types';
import { checks } from './checks';
import { clearNotifications } from './workbench';

export interface E2eResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
  /** Screenshots of passing checks, by name (what --update-screenshots copies for the README). */
  screenshots: Record<string, string>;
}

export interface E2eOptions {
  page: Page;
  sandbox: SandboxBootstrap;
  screenshotDir: string;
  /** The VS Code version under test ("1.139"), for checks of UI that older engines do not have. */
  vscode?: string;
  /** The display language when not English: only checks with `bothLanguages` run, their screenshots named "<name>-<locale>". */
  locale?: string;
  log(line: string): void;
}

/** "1.139" ≥ "1.120"? Versions without a number count as new (run every check). */
function atLeast(version: string | undefined, minimum: string): boolean {
  if (version === undefined) return true;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = minimum.split('.').map(Number);
  return major > minMajor || (major === minMajor && minor >= minMinor);
}

export async function runE2eChecks({ page, sandbox, screenshotDir, vscode, locale, log }: E2eOptions): Promise<E2eResults> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  // A missing element fails after a minute: long enough for a busy machine, short enough for the phase budget.
  page.setDefaultTimeout(60_000);
  const results: E2eResults = { passed: 0, failed: 0, skipped: 0, failures: [], screenshots: {} };
  // Developers narrow a run with COMPUTE_TOOLKIT_E2E_GREP="Jobs view" (the others count as skipped).
  const grep = process.env.COMPUTE_TOOLKIT_E2E_GREP;
  for (const [index, check] of checks.entries()) {
    const prefix = String(index + 1).padStart(2, '0');
    if ((grep && !check.title.includes(grep)) || (locale !== undefined && check.bothLanguages !== true)) {
      results.skipped += 1;
      continue;
    }
    const taken: Record<string, string> = {};
    const screenshot = async (shot: string): Promise<void> => {
      const name = locale === undefined ? shot : `${shot}-${locale}`;
      const file = path.join(screenshotDir, `${prefix}-${name}.png`);
      await page.mouse.move(900, 880); // no hover tooltip in the picture (over the empty status bar middle)
      await page.screenshot({ path: file });
      taken[name] = file;
    };
    if (check.minVersion !== undefined && !atLeast(vscode, check.minVersion)) {
      // Counted and printed as skipped, never silently dropped.
      results.skipped += 1;
      log(`  - ${check.title} (skipped: needs VS Code ${check.minVersion}+, this is ${vscode ?? 'unknown'})`);
      continue;
    }
    const started = Date.now();
    try {
      // Each check starts with no toast left by the one before: VS Code shows at most three toasts and
      // keeps a newer one hidden behind older sticky ones (a machine's Serving notice hid the deploy progress).
      if (index > 0) await clearNotifications(page);
      await check.run({ page, sandbox, screenshot, ...(locale !== undefined ? { locale } : {}) });
      results.passed += 1;
      Object.assign(results.screenshots, taken);
      log(`  ✔ ${check.title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      results.failed += 1;
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      results.failures.push(`${check.title}: ${message}`);
      log(`  ✘ ${check.title}\n      ${message}`);
      await page.screenshot({ path: path.join(screenshotDir, `${prefix}-FAILED.png`) }).catch((shotError: unknown) => {
        log(`      (no failure screenshot: ${shotError instanceof Error ? shotError.message : String(shotError)})`);
      });
      // Leave no dialog or quick pick behind for the next check.
      await page.keyboard.press('Escape').catch(() => undefined);
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  return results;
}
