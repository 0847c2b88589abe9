import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless; the flags keep it from reaching for the (closed) network. `extraArgs`: e.g. the benchmark's. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export const VIEWPORT = { width: 1400, height: 900 };
