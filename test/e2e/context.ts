// What the test host hands to the e2e tests: they run in the host's Node process, against the workbench page
// the host opened (after the in-editor suites, in the same browser).
import type { Page } from 'playwright-core';
import type { LocalApi } from '../api-server';
import type { Workbench } from './workbench';

export interface E2EContext {
  workbench: Workbench;
  page: Page;
  /** The local PostHog API the extension is pointed at (POSTHOG_HOST / POSTHOG_PERSONAL_API_KEY). */
  api: LocalApi;
  /** test-results/ in the clone. */
  resultsDir: string;
  /** The folder the workbench has open. */
  workspaceDir: string;
}

let current: E2EContext | undefined;

export function setE2EContext(context: E2EContext | undefined): void {
  current = context;
}

export function e2e(): E2EContext {
  if (!current) throw new Error('e2e tests run inside the test host: npm run test:editor');
  return current;
}

/**
 * Waits until the extension has asked the local API nothing matching `path` for `quietMs`. A tree that
 * refreshes again while a test clicks it runs the command of a row VS Code has already replaced
 * ("Actual command not found"), so tests click only once the lists have settled.
 */
async function waitForQuietRequests(api: LocalApi, path: RegExp, quietMs = 700): Promise<void> {
  const count = () => api.requests.filter((request) => path.test(request.path)).length;
  const deadline = Date.now() + 20_000;
  let seen = count();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = count();
    if (now === seen || Date.now() > deadline) return;
    seen = now;
  }
}

/**
 * Shows a project's notebooks in the PostHog view, freshly listed (earlier tests may have left the list
 * expanded and cached), once the lists have settled so that a click hits the row VS Code shows.
 */
export async function showNotebooksOf(organizationName: string, projectName: string): Promise<void> {
  const { workbench, api } = e2e();
  await workbench.openViewContainer('PostHog');
  await workbench.waitForSidebarIdle();
  await workbench.expandTreeItem(organizationName);
  await workbench.expandTreeItem(projectName);
  await workbench.expandTreeItem('Notebooks');
  await workbench.pressTreeItemAction('Notebooks', 'Refresh');
  await workbench.waitForSidebarIdle();
  await waitForQuietRequests(api, /\/notebooks\/$/);
}
