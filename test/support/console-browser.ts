import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';

/** Debian's Chromium; .ci/run installs it. Never a browser downloaded by a test tool. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Where the console tests leave a screenshot of each page they check (gitignored). */
export const SCREENSHOTS_DIR = resolve(__dirname, '..', '..', 'test-results', 'console');

// Headless, as root, on a machine with no network but loopback: no sandbox, no GPU, nothing that phones home.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ConsoleBrowser {
  page: Page;
  /** The page's `location.hash` (the console's route). */
  hash(): Promise<string>;
  /** What the console keeps in session storage, by storage key. */
  stored(name: string): Promise<string | null>;
  /** The id of the element that has keyboard focus. */
  focusedId(): Promise<string | undefined>;
  /** Messages the page logged as errors, and uncaught exceptions (a CSP violation shows up here). */
  errors: string[];
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh Chromium profile at laptop size (1366×768), closed and removed by `close`. */
export async function openConsoleBrowser(): Promise<ConsoleBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `the console tests need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install chromium ` +
        '(.ci/run installs it when it is missing)',
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'console-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1366, height: 768 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const page = context.pages()[0] ?? (await context.newPage());
  // Fail a step in seconds, not in Playwright's default 30 s: the suite's own timeout is 60 s per test.
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  // Expressions rather than functions: this file is type-checked for Node, without the DOM's types.
  return {
    page,
    hash: () => page.evaluate<string>('location.hash'),
    stored: (name) => page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(name)})`),
    focusedId: () => page.evaluate<string | undefined>('document.activeElement?.id'),
    errors,
    async screenshot(name) {
      await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
