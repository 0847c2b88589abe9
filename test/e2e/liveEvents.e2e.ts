import assert from 'node:assert/strict';
import { after, describe, it } from 'mocha';
import type { Frame } from 'playwright-core';
import { e2e } from './context';
import { eventsFrame, waitUntil } from './eventsWebview';

const ROW_HEIGHT = 24;

async function control(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${e2e().api.url}/_control/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(response.ok, `/_control/${path}: ${response.status}`);
}

/** The ISO time (the Time cell's title) of the table's first row. */
const newestShown = (frame: Frame) => frame.locator('.grid .row.data[aria-rowindex="2"] .cell.time').getAttribute('title', { timeout: 2_000 }).catch(() => null);
const domRows = (frame: Frame) => frame.locator('.grid .row.data').count();

describe('Live events (e2e)', () => {
  let projectId = 0;
  let otherProjectId = 0;
  after(async () => {
    if (projectId) await control('events/live', { projectId, perSecond: 0 });
    if (otherProjectId) await control('events/live', { projectId: otherProjectId, perSecond: 0 });
  });

  it('Watch Live Events: new events appear at the top, the reader keeps their place, the DOM stays bounded', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    projectId = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!.id;
    api.store.addEvents(projectId, 2_000, { withinHours: 1 });

    await workbench.runCommand('PostHog: Watch Live Events');
    await workbench.pickQuickItem('Hedgebox');
    const frame = await eventsFrame(page, 'Hedgebox');
    // The panel may be open already with filters and a scroll position: start from the default listing.
    await frame.locator('vscode-button', { hasText: 'Reset' }).click();
    await frame.locator('.grid .row.data[aria-rowindex="2"]').waitFor();
    const toggle = frame.locator('.live-toggle');
    await waitUntil(page, async () => (await toggle.getAttribute('aria-pressed')) === 'true', 'the Live toggle is on');
    await waitUntil(page, async () => /checked every 5 s/.test(await frame.locator('.live-status').innerText()), 'Live is watching');
    const before = (await newestShown(frame)) ?? '';
    const time = await frame.locator('.grid .row.data[aria-rowindex="2"] .cell.time').innerText();
    assert.match(time, / · \d+\S* ago$/, `local time with its age: ${time}`);

    const started = new Date().toISOString();
    await control('events/live', { projectId, perSecond: 20 });
    await waitUntil(page, async () => ((await newestShown(frame)) ?? '') > started, 'a new event appears at the top', 20_000);
    assert.ok(((await newestShown(frame)) ?? '') > before);
    assert.equal(await frame.locator('.grid .row.data.fresh').first().isVisible(), true, 'new rows are highlighted');

    // Reading further down: the rows stay put and a button offers the new ones.
    const grid = frame.locator('.grid');
    await grid.evaluate((element) => (element.scrollTop = 50 * 24));
    await page.waitForTimeout(300);
    const rowAt = async (scrollTop: number) => {
      const index = Math.floor(scrollTop / ROW_HEIGHT);
      return frame.locator(`.grid .row.data[data-index="${index}"] .cell`).allInnerTexts();
    };
    const scrollBefore = await grid.evaluate((element) => element.scrollTop);
    const readingBefore = (await rowAt(scrollBefore)).slice(1).join('|');
    const newer = frame.locator('.live-new');
    await waitUntil(page, async () => await newer.isVisible(), 'the "new events" button shows', 20_000);
    assert.match(await newer.innerText(), /^\d+ new events?$/);
    const scrollAfter = await grid.evaluate((element) => element.scrollTop);
    assert.ok(scrollAfter > scrollBefore && (scrollAfter - scrollBefore) % ROW_HEIGHT === 0, `moved by whole rows: ${scrollBefore} → ${scrollAfter}`);
    assert.equal((await rowAt(scrollAfter)).slice(1).join('|'), readingBefore, 'the row being read is still in view, in the same place');
    await newer.click();
    await waitUntil(page, async () => (await grid.evaluate((element) => element.scrollTop)) === 0 && !(await newer.isVisible()), 'back at the top');

    // Bounded however long it runs (a few polls here; the benchmark runs ten minutes).
    const counts: number[] = [];
    for (let poll = 0; poll < 3; poll++) {
      const newest = await newestShown(frame);
      await waitUntil(page, async () => (await newestShown(frame)) !== newest, 'another batch', 20_000);
      counts.push(await domRows(frame));
    }
    console.log(`      rows in the DOM after each batch: ${counts.join(', ')}`);
    assert.ok(counts.every((count) => count > 0 && count <= 200), counts.join(', '));

    // The detail's properties: a tree with search.
    await frame.locator('.grid .row.data[aria-rowindex="2"]').click();
    const tree = frame.locator('.detail .property-tree');
    await tree.waitFor();
    await tree.locator('input[type=search]').fill('$browser');
    await waitUntil(page, async () => {
      const keys = await tree.locator('.tree-node:not([hidden]) > .tree-line .tree-key').allInnerTexts();
      return keys.length > 0 && keys.every((key) => key.toLowerCase().includes('$browser'));
    }, 'only the matching properties show');
    await frame.locator('.detail vscode-button', { hasText: 'Close' }).click();

    await toggle.click();
    await waitUntil(page, async () => (await toggle.getAttribute('aria-pressed')) === 'false', 'Live is off');
    await control('events/live', { projectId, perSecond: 0 });
    api.clearRequests();
    await page.waitForTimeout(6_000);
    assert.deepEqual(api.requests.filter((request) => request.path === `/api/projects/${projectId}/events/`), [], 'no polls once off');
  });

  it('Live in two panels side by side: they share the key\'s budget, poll half as often and say why, both show new events', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    const staging = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox Staging')!;
    projectId = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!.id;
    otherProjectId = staging.id;
    api.store.addEvents(staging.id, 200, { withinHours: 1 });

    await workbench.runCommand('PostHog: Watch Live Events');
    await workbench.pickQuickItem('Hedgebox');
    const first = await eventsFrame(page, 'Hedgebox');
    await workbench.runCommand('View: New Editor Group to the Right');
    await workbench.runCommand('PostHog: Watch Live Events');
    await workbench.pickQuickItem('Hedgebox Staging');
    const second = await eventsFrame(page, 'Hedgebox Staging');
    const status = (frame: Frame) => frame.locator('.live-status').innerText();
    for (const frame of [first, second]) {
      await waitUntil(page, async () => (await frame.locator('.live-toggle').getAttribute('aria-pressed')) === 'true', 'Live is on in both panels');
      await waitUntil(
        page,
        async () => /checked every 10 s, slowed down: 2 live panels share this API key's PostHog limit/.test(await status(frame)),
        'each panel says it polls every 10 s because two panels share the key',
        40_000,
      );
    }

    const started = new Date().toISOString();
    api.clearRequests();
    await control('events/live', { projectId, perSecond: 5 });
    await control('events/live', { projectId: staging.id, perSecond: 5 });
    for (const frame of [first, second]) {
      await waitUntil(page, async () => ((await newestShown(frame)) ?? '') > started, 'new events appear at the top of both panels', 30_000);
    }
    const watchedMs = Date.now() - Date.parse(started);
    const polls = api.requests.filter((request) => /\/events\/$/.test(request.path) && request.query['after'] && request.query['limit'] === '1000').length;
    console.log(`      ${polls} polls in ${Math.round(watchedMs / 1000)} s by the two panels`);
    assert.ok(polls <= 2 * (Math.ceil(watchedMs / 10_000) + 1), `${polls} polls in ${watchedMs} ms: each panel every 10 s`);

    await second.locator('.live-toggle').click();
    await waitUntil(page, async () => (await second.locator('.live-toggle').getAttribute('aria-pressed')) === 'false', 'Live is off in the second panel');
    await waitUntil(page, async () => /checked every 5 s\)\.$/.test(await status(first)), 'the first panel alone is back to every 5 s', 30_000);
    await first.locator('.live-toggle').click();
    await control('events/live', { projectId, perSecond: 0 });
    await control('events/live', { projectId: staging.id, perSecond: 0 });
    await workbench.runCommand('View: Close All Editor Groups');
  });
});
