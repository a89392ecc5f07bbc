// What the browser tests need from the machine: Debian's Chromium (never a
// downloaded browser) and the optional playwright-core module. Shared by the
// package's browser test (wasm/test) and the page's (web/test); each skips
// itself with `browserSkip` as the reason when something is missing.
import { existsSync } from 'node:fs';

export const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
  .find((p) => existsSync(p));

export let playwright = null;
try {
  playwright = await import('playwright-core');
} catch (e) {
  // not installed
}

export const browserSkip = !chromium ? 'Chromium is not installed'
  : !playwright ? 'playwright-core is not installed' : false;
