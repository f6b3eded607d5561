import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/console-browser';

// A PNG of the chart, for places that do not show SVG: Debian's Chromium (never a downloaded browser)
// screenshots the SVG in a fresh, empty profile. Without Chromium the report simply has no PNG.

export async function renderChartPng(svgPath: string, pngPath: string): Promise<boolean> {
  if (!existsSync(CHROMIUM_PATH)) return false;
  const svg = await readFile(svgPath, 'utf8');
  const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 980);
  const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 600);
  const profile = await mkdtemp(join(tmpdir(), 'bench-chart-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width, height },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: pngPath });
    return true;
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
