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

// Every browser test and benchmark launches Chromium the same way: headless,
// without the sandbox (CI runs as root), and without the background traffic
// (networking, component updates, sync) that would compete with the page for
// the two cores or stall a test on a machine with no network. `extraArgs`
// adds to these (a benchmark's profiler flags); `timeout` bounds the launch.
export const chromiumArgs = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync'];

export function launchChromium({ extraArgs = [], timeout } = {}) {
  if (browserSkip) return Promise.reject(new Error(browserSkip));
  return playwright.chromium.launch({
    executablePath: chromium,
    ...(timeout === undefined ? {} : { timeout }),
    args: [...chromiumArgs, ...extraArgs],
  });
}
