// Finding and waiting on the events webview in the workbench page (shared by the events e2e tests).
import type { Frame, Page } from 'playwright-core';

/** The content frame of the events webview of this project (VS Code nests it two iframes deep). */
export async function eventsFrame(page: Page, projectName: string, timeout = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if ((await frame.locator('h1', { hasText: `Events: ${projectName}` }).count()) > 0) return frame;
      } catch {
        // a frame that went away while we looked
      }
    }
    if (Date.now() > deadline) throw new Error(`No events webview for ${projectName}`);
    await page.waitForTimeout(200);
  }
}

export async function waitUntil(page: Page, condition: () => Promise<boolean>, what: string, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await page.waitForTimeout(100);
  }
}
