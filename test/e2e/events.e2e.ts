import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../host/paths';
import { csvRecords } from '../support/csv';
import { e2e } from './context';
import { eventsFrame, waitUntil } from './eventsWebview';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_SCRIPT = '<script>window.__pwned=2</script>';
const PAGE_SIZE = 50;

async function loadedCount(frame: Frame): Promise<number> {
  const text = await frame.locator('.status').innerText();
  const match = /([\d,]+) events/.exec(text);
  return match ? Number(match[1]!.replace(/,/g, '')) : 0;
}

describe('Events explorer (e2e)', () => {
  let frame: Frame;

  it('query api: columns and where go to PostHog as an EventsQuery; a HogQL error shows under its field; a 404 falls back to the legacy list', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    api.setQueryApi({ available: true });
    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    await workbench.expandTreeItem('Hedgebox Inc.');
    await workbench.expandTreeItem('Hedgebox');
    await workbench.clickTreeItem('Events');
    frame = await eventsFrame(page, 'Hedgebox');
    await waitUntil(page, async () => (await loadedCount(frame)) > 0, 'the first events load');

    api.clearRequests();
    const queryPosts = () => api.requests.filter((request) => request.method === 'POST' && request.path === `/api/projects/${project.id}/query/`);
    await frame.locator('vscode-textfield[name=columns] input').fill('properties.$browser, upper(event)');
    await frame.locator('vscode-textfield[name=where] input').fill("event = '$pageview'");
    await frame.locator('vscode-textfield[name=where] input').press('Enter');
    const headers = frame.locator('.grid .row.header .cell');
    await waitUntil(page, async () => (await headers.allInnerTexts()).includes('upper(event)') && (await loadedCount(frame)) > 0, 'the columns head the table and rows load');
    const sent = (queryPosts().at(-1)?.body as { query: Record<string, unknown> }).query;
    assert.deepEqual(sent['where'], ["event = '$pageview'"]);
    assert.deepEqual(sent['orderBy'], ['timestamp DESC']);
    const upper = await frame.locator('.grid .row.data .cell:nth-child(6)').allInnerTexts();
    assert.ok(upper.length > 0 && upper.every((text) => text === '$PAGEVIEW'), upper.slice(0, 3).join(', '));

    await frame.locator('vscode-textfield[name=where] input').fill('event = = 1');
    await frame.locator('vscode-textfield[name=where] input').press('Enter');
    const whereError = frame.locator('.field-error:not([hidden])');
    await waitUntil(page, async () => (await whereError.count()) > 0, 'the HogQL error shows under the where field');
    assert.match(await whereError.first().innerText(), /mismatched input/);
    assert.equal(await whereError.first().locator('mark').innerText(), '=');

    // An older server: /query/ answers 404, and the panel lists the legacy events list instead.
    api.setQueryApi({ available: false });
    api.clearRequests();
    await frame.locator('vscode-textfield[name=where] input').fill('');
    await frame.locator('vscode-textfield[name=columns] input').fill('');
    await frame.locator('vscode-textfield[name=where] input').press('Enter');
    await waitUntil(page, async () => api.requests.some((request) => request.path === `/api/projects/${project.id}/events/`) && (await loadedCount(frame)) > 0, 'the legacy list answers');
    assert.equal(queryPosts().length, 1, 'the Query API was asked once, then remembered as missing');
    assert.equal(await whereError.count(), 0);
    // The server has its Query API again for the suites after this one (the extension keeps to the legacy list
    // it learnt for this session, which the next tests here expect).
    api.setQueryApi({ available: true });
  });

  it('opens from the Events item, filters, and keeps at most 200 rows in the DOM while scrolling past several pages', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    api.store.addEvents(project.id, 6_000, { withinHours: 20 });
    api.store.addEvent(project.id, {
      event: '$pageview',
      distinct_id: 'hostile-visitor',
      properties: { $current_url: HOSTILE, $browser: HOSTILE_SCRIPT, $lib: HOSTILE_SCRIPT, note: HOSTILE },
    });

    // A fresh panel: the previous test's one, revealed again, may reload its page and fill the form with the
    // filters it had (its 'init') just after this test typed into it.
    await workbench.runCommand('View: Close All Editors');
    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    await workbench.expandTreeItem('Hedgebox Inc.');
    await workbench.expandTreeItem('Hedgebox');
    await workbench.clickTreeItem('Events');
    frame = await eventsFrame(page, 'Hedgebox');
    await waitUntil(page, async () => (await loadedCount(frame)) > 0, 'the first events load');

    api.clearRequests();
    const isFilteredFirstPage = (request: (typeof api.requests)[number]) =>
      request.path === `/api/projects/${project.id}/events/` && request.query['limit'] === String(PAGE_SIZE) && !request.query['before'];
    await frame.locator('input[name=event]').fill('$pageview');
    await frame.locator('vscode-textfield[name=after] input').fill('-24h');
    await frame.locator('vscode-textfield[name=limit] input').fill(String(PAGE_SIZE));
    await frame.locator('vscode-textfield[name=limit] input').press('Enter');
    await waitUntil(page, async () => api.requests.some(isFilteredFirstPage), 'the filtered query is sent');
    await waitUntil(page, async () => (await loadedCount(frame)) >= 300 && api.requests.filter((request) => request.query['before']).length >= 5, 'the filtered events load');
    const first = api.requests.find(isFilteredFirstPage);
    assert.equal(first?.query['event'], '$pageview');
    assert.match(String(first?.query['after']), /^\d{4}-\d{2}-\d{2}T/, 'the relative time was resolved by the extension');
    assert.equal(first?.query['limit'], String(PAGE_SIZE));

    const grid = frame.locator('.grid');
    // Rows are drawn on the animation frame after a page arrives, so the count waits for that frame.
    await waitUntil(page, async () => (await frame.locator('.grid .row.data').count()) > 0, 'the loaded rows are drawn');
    const domRows: number[] = [await frame.locator('.grid .row.data').count()];
    let loaded = await loadedCount(frame);
    const initiallyLoaded = loaded;
    for (let scroll = 0; scroll < 4; scroll++) {
      // Scrolled to the end on every poll, as a person keeps scrolling: since the form grew (columns, where), a
      // single scroll was found back at 0 in this workbench now and then, with no new listing (cause not found).
      await waitUntil(
        page,
        async () => {
          await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
          return (await loadedCount(frame)) > loaded;
        },
        `more events load after scroll ${scroll + 1}`,
      );
      loaded = await loadedCount(frame);
      domRows.push(await frame.locator('.grid .row.data').count());
    }
    await grid.evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    await page.waitForTimeout(200);
    domRows.push(await frame.locator('.grid .row.data').count());
    console.log(`      loaded ${initiallyLoaded} → ${loaded} events; rows in the DOM at each position: ${domRows.join(', ')}`);
    assert.ok(domRows.every((count) => count > 0 && count <= 200), domRows.join(', '));
    const pages = api.requests.filter(
      (request) => request.path === `/api/projects/${project.id}/events/` && request.query['limit'] === String(PAGE_SIZE) && request.query['before'],
    );
    assert.ok(pages.length >= 8, `followed next ${pages.length} times`);
    assert.ok(pages.every((request) => request.query['event'] === '$pageview'), 'next links keep the filter');
    assert.ok(loaded >= initiallyLoaded + 4 * PAGE_SIZE);
    assert.ok(pages.every((request) => request.query['include_person'] === 'true'), 'persons are asked for');
    const persons = await frame.locator('.grid .row.data .cell:nth-child(4)').allInnerTexts();
    assert.ok(persons.some((text) => text.trim() !== ''), 'the Person column is filled');
  });

  it('suggests values of a property of the typed event, next to the field; without an event name says to type one', async () => {
    const { page, api } = e2e();
    api.clearRequests();
    await frame.locator('vscode-button', { hasText: 'Add property filter' }).click();
    await frame.locator('.property-row vscode-textfield[name=key] input').fill('$browser');
    const value = frame.locator('.property-row input[name=value]');
    await value.fill('Chr');
    await waitUntil(page, async () => (await frame.locator('.property-row datalist option[value="Chrome"]').count()) > 0, 'Chrome is suggested');
    const asked = api.requests.filter((request) => request.path.endsWith('/events/values/'));
    assert.deepEqual(asked.at(-1)?.query, { key: '$browser', event_name: '$pageview', value: 'Chr' });
    await frame.locator('input[name=event]').fill('');
    await value.fill('Fire');
    const note = frame.locator('.property-row .field-note');
    await waitUntil(page, async () => /type an event name first/i.test(await note.innerText().catch(() => '')), 'the note shows by the field');
    await frame.locator('vscode-button', { hasText: 'Remove' }).click();
    await frame.locator('input[name=event]').fill('$pageview');
  });

  it('shows hostile property values as inert text, in the table and in the detail', async () => {
    const { page } = e2e();
    const grid = frame.locator('.grid');
    await grid.evaluate((element) => (element.scrollTop = 0));
    const firstRow = frame.locator('.grid .row.data[aria-rowindex="2"]');
    await firstRow.waitFor();
    const cells = await firstRow.locator('.cell').allInnerTexts();
    assert.equal(cells[2], 'hostile-visitor');
    assert.equal(cells[4], HOSTILE, 'the Url / Screen column (PostHog\'s default) shows the characters');
    assert.equal(cells[5], HOSTILE_SCRIPT, 'the properties.$lib column too');
    await firstRow.click();
    const detail = frame.locator('section.detail');
    await detail.locator('.property-tree').waitFor();
    const properties = await detail.locator('.property-tree').innerText();
    assert.ok(properties.includes(HOSTILE.replace(/"/g, '\\"')), properties.slice(0, 200));
    assert.equal(await frame.locator('img').count(), 0, 'no <img> element was created');
    assert.equal(await frame.locator('#app script').count(), 0, 'no <script> element was created');
    await page.waitForTimeout(300);
    assert.equal(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
  });

  it('opens an event detail from the keyboard, with copy buttons', async () => {
    const grid = frame.locator('.grid');
    await grid.focus();
    await grid.press('Home');
    await grid.press('ArrowDown');
    await grid.press('Enter');
    const detail = frame.locator('section.detail');
    await detail.locator('h3', { hasText: 'Properties' }).waitFor();
    assert.match(await detail.locator('dl.facts').innerText(), /\$pageview/);
    for (const label of ['Copy ID', 'Copy properties', 'Copy event JSON']) {
      assert.equal(await detail.locator('vscode-button', { hasText: label }).count(), 1, label);
    }
    assert.equal(await frame.locator('.grid').getAttribute('aria-activedescendant'), 'event-row-1');
  });

  it('opening an event while PostHog makes the key wait shows the wait in the detail, then the event', async () => {
    const { page, api } = e2e();
    api.injectFault({ path: /\/events\/[0-9a-f]{8}-[0-9a-f-]+\/$/, status: 429, throttleSeconds: 3 });
    await frame.locator('.grid .row.data[aria-rowindex="3"]').click();
    const detail = frame.locator('section.detail');
    const waiting = detail.locator('.waiting');
    await waitUntil(page, async () => /^PostHog asked to wait \d s \(its rate limit for this API key\); going on at /.test(await waiting.innerText().catch(() => '')), 'the detail says what it waits for');
    await detail.locator('h3', { hasText: 'Properties' }).waitFor({ timeout: 10_000 });
    assert.equal(await waiting.count(), 0, 'the note goes when the event comes');
  });

  it('a 429 asking to wait 99,999,999 s stops the list at once with PostHog\'s text and a Retry button that loads it again', async () => {
    const { page, api } = e2e();
    api.clearRequests();
    api.injectFault({ path: /\/events\/$/, status: 429, throttleText: '99999999' });
    await frame.locator('vscode-textfield[name=limit] input').press('Enter');
    const alert = frame.locator('p.list-alert');
    await waitUntil(page, async () => /asked to wait 3 years \(PostHog: "Request was throttled\. Expected available in 99999999 seconds\."\)/.test(await alert.innerText().catch(() => '')), 'the panel shows PostHog\'s text');
    assert.equal(api.requests.filter((request) => request.path.endsWith('/events/')).length, 1, 'asked once, no wait loop');
    await alert.locator('vscode-button', { hasText: 'Retry' }).click();
    await waitUntil(page, async () => (await loadedCount(frame)) > 0 && (await alert.innerText()) === '', 'Retry loads the events again');
  });

  it('exports the current filter to CSV through the save dialog', async () => {
    const { workbench, workspaceDir, page } = e2e();
    const target = path.join(workspaceDir, 'pageviews.csv');
    await rm(target, { force: true });
    await frame.locator('vscode-button', { hasText: 'Export CSV…' }).click();
    // VS Code's simple file dialog offers <workspace>/events-<project>-<time>.csv with the base name selected:
    // type another name over it, as a person does, and accept.
    await waitUntil(page, async () => /events-\d+-[\d-]+\.csv$/.test(await workbench.inputBoxValue()), 'the dialog offers a file name');
    await page.keyboard.type('pageviews', { delay: 20 }); // the name is selected, not its extension
    await waitUntil(page, async () => (await workbench.inputBoxValue()).endsWith('/pageviews.csv'), 'the dialog shows the new name');
    await page.waitForTimeout(300);
    await workbench.acceptQuickInput();
    const toast = await workbench.waitForNotification(/Exported [\d,]+ events/);
    const said = await toast.innerText();
    await waitUntil(page, async () => existsSync(target), `the file exists (the notification said: ${said})`);
    const [header, ...rows] = csvRecords(readFileSync(target, 'utf8'));
    const eventColumn = header!.indexOf('event');
    assert.ok(eventColumn >= 0, header!.join(','));
    assert.ok(rows.length > 100 && rows.length <= 1_000, `${rows.length} rows (1,000 asked by default)`);
    assert.ok(rows.every((row) => row[eventColumn] === '$pageview'));
    assert.match(said, new RegExp(`Exported ${rows.length.toLocaleString('en-US')} events`), 'the message counts the rows written');
  });

  it('restores the filters and scroll position when the panel is shown again (screenshot)', async () => {
    const { workbench, page, resultsDir } = e2e();
    if (await workbench.quickInput.isVisible()) await workbench.dismissQuickInput();
    const grid = frame.locator('.grid');
    await grid.evaluate((element) => (element.scrollTop = 24 * 120));
    await page.waitForTimeout(500); // the scroll position is saved after a short pause
    await workbench.runCommand('File: New Untitled Text File');
    await workbench.runCommand('View: Open Previous Editor');
    frame = await eventsFrame(page, 'Hedgebox');
    await waitUntil(page, async () => (await frame.locator('input[name=event]').inputValue()) === '$pageview', 'the filter is restored');
    await waitUntil(page, async () => (await frame.locator('.grid').evaluate((element) => element.scrollTop)) > 24 * 100, 'the scroll position is restored');
    await workbench.clearNotifications();
    const file = await workbench.screenshot(path.join(resultsDir, 'events.png'));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      const readme = path.join(repoRoot, 'media', 'screenshots', 'events.png');
      await mkdir(path.dirname(readme), { recursive: true });
      await copyFile(file, readme);
    }
  });
});
