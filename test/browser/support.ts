/**
 * Browser test support: the service in-process (test/support/harness.ts: app + simulator on loopback, the
 * app serving the built console) and the Debian chromium at /usr/bin/chromium driven by playwright-core
 * (never a browser download). A browser that cannot start makes the suite FAIL, never skip. Every page
 * records its console errors and uncaught exceptions; `expectNoConsoleErrors` fails a test on any.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildConsole } from '../../scripts/build-console.mjs';
import { startHarness, type Harness } from '../support/harness.js';

/** The system browser (Debian package `chromium`; .ci/run installs it when missing). */
export const CHROMIUM = process.env.TMS_CHROMIUM ?? '/usr/bin/chromium';
/** Flags every launch uses. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Widths the console must work at. */
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

/** A page with what it logged. */
export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
}

/** The running world of a browser suite. */
export interface ConsoleWorld {
  h: Harness;
  context: BrowserContext;
  /** A new tab at the given viewport, with its console watched. */
  open(viewport?: { width: number; height: number }): Promise<WatchedPage>;
  /** A tab already signed in with company A's token, on `path` (e.g. '/channels'). */
  signedIn(path: string, viewport?: { width: number; height: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** Launches chromium with a fresh profile; throws (fails the suite) when it cannot run. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install the Debian package (apt-get install -y chromium); the browser suite does not skip`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'tms-chromium-'));
  // playwright wants the profile as launchPersistentContext's argument (the --user-data-dir flag).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
    acceptDownloads: true,
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Starts the service (console built first when stale) and chromium. */
export async function startConsoleWorld(): Promise<ConsoleWorld> {
  await buildConsole({ quiet: true });
  const h = await startHarness();
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  try {
    browser = await launchChromium();
  } catch (err) {
    await h.close();
    throw err;
  }
  const world: ConsoleWorld = {
    h,
    context: browser.context,
    async open(viewport = DESKTOP) {
      const page = await browser.context.newPage();
      await page.setViewportSize(viewport);
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
      return { page, errors };
    },
    async signedIn(path, viewport = DESKTOP) {
      const watched = await world.open(viewport);
      await signIn(watched.page, h.appUrl, h.a.token);
      await watched.page.goto(`${h.appUrl}/#${path}`);
      return watched;
    },
    async close() {
      await browser.close();
      await h.close();
    },
  };
  return world;
}

/** Signs in through the form and waits for the company name in the header. */
export async function signIn(page: Page, appUrl: string, token: string, company = 'Company A'): Promise<void> {
  await page.goto(`${appUrl}/#/signin`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('company-name').filter({ hasText: company }).waitFor();
}

/**
 * Fails on any console error or uncaught exception the page logged. `allowed` lists patterns of errors the
 * test caused on purpose (e.g. the browser's line for a 401 the test provoked); each must match.
 */
export function expectNoConsoleErrors(watched: WatchedPage, allowed: RegExp[] = []): void {
  const unexpected = watched.errors.filter((e) => !allowed.some((re) => re.test(e)));
  assert.deepEqual(unexpected, [], `console errors on ${watched.page.url()}`);
}

/** The page is no wider than its viewport (nothing cut off or scrolling sideways). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, view } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(scroll <= view, `page is ${scroll}px wide in a ${view}px viewport (${page.url()})`);
}
