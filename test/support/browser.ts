import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, installed by the set-up (never a browser build of Playwright's own). */
const chromiumPath = '/usr/bin/chromium';

/**
 * Headless Chromium for the browser tests, with nothing of its own reaching out (no background
 * networking, component updates or sync). Playwright gives each launch a fresh profile directory of
 * its own (its --user-data-dir), removed on close.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
