import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { CONTAINS_TARGETS } from '../../src/notebooks/lists/notebookContains';
import { NotebooksNode } from '../../src/notebooks/lists/notebookNodes';
import { SAMPLE_REFS } from '../api-server/notebook-samples';
import { ExplorerHarness, labelOf } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import type { Prompt } from './support/scriptedWindow';
import { runnerSecrets } from './support/runnerContext';

const ORGANIZATION = 'Hedgebox Inc.';
const PROJECT = 'Hedgebox';

describe('Notebook filter: contains', function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;

  beforeEach(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    assert.ok(await harness.signInToLocalApi());
    harness.window.prompts.length = 0;
  });
  afterEach(() => harness.dispose());

  /** Runs the Filter Notebooks command on the project with the scripted answers given before. */
  async function filter(): Promise<void> {
    await harness.notebooks.listCommands.filterNotebooks(await harness.child(ORGANIZATION, PROJECT));
  }

  /** The notebooks the explorer lists now, and the list request it sent for them. */
  async function listed(): Promise<{ titles: string[]; request: RecordedRequest }> {
    await localApi.clearRequests();
    const node = await harness.child(ORGANIZATION, PROJECT, 'Notebooks');
    assert.ok(node instanceof NotebooksNode);
    const titles = (await harness.items(node)).map(({ item }) => labelOf(item));
    const request = (await localApi.requests()).find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request, 'the list was fetched');
    return { titles, request };
  }

  const promptTitled = (title: string): Prompt | undefined => harness.window.prompts.find((prompt) => prompt.title === title);

  it("offers PostHog's targets, each saying what it finds, and sends the one picked with its hyphens", async () => {
    harness.window.pick('Contains').pick('Feature flag').pick('Has one').pick('Done').pick('Apply');
    await filter();
    const menu = promptTitled('Notebooks Containing');
    assert.ok(menu?.items, JSON.stringify(harness.window.prompts));
    const offered = menu.items.filter((item) => !item.separator && (CONTAINS_TARGETS as readonly string[]).includes(item.description ?? ''));
    assert.deepEqual(
      offered.map((item) => item.description),
      [...CONTAINS_TARGETS],
      'every target, as typed for PostHog',
    );
    for (const target of ['recording', 'replay-timestamp', 'query', 'feature-flag', 'cohort', 'person', 'survey', 'early-access-feature', 'recording-playlist']) {
      assert.ok(offered.some((item) => item.description === target), target);
    }
    assert.ok(offered.every((item) => (item.detail ?? '').length > 10), 'each says what it finds');
    assert.match(offered.find((item) => item.description === 'insight')?.detail ?? '', /Only old ph-insight nodes/);
    assert.match(offered.find((item) => item.description === 'markdown-notebook')?.detail ?? '', /tags are not seen/);
    assert.match(menu.placeHolder ?? '', /top-level nodes.*Markdown notebook/);
    const match = promptTitled('Notebooks Containing: Feature flag');
    assert.deepEqual(match?.items?.map((item) => item.description), ['feature-flag:true', 'feature-flag:false', 'feature-flag:<id>']);

    const { titles, request } = await listed();
    assert.equal(request.query.contains, 'feature-flag:true');
    assert.equal(request.status, 200);
    assert.ok(titles.includes('Pricing experiment notes'), titles.join(', '));
    assert.ok(!titles.includes('Weekly product review'), 'no feature flag in it');
    const item = harness.tree.getTreeItem(await harness.child(ORGANIZATION, PROJECT, 'Notebooks'));
    assert.match(String(item.description), /contains feature-flag:true/);
  });

  it('builds several pairs: a saved insight by short id, then removes one', async () => {
    harness.window
      .pick('Contains')
      .pick('Insight or query')
      .pick('This One')
      .type(` ${SAMPLE_REFS.insight} `)
      .pick('Recording')
      .pick('Has none')
      .pick('recording:false')
      .pick('Done')
      .pick('Apply');
    await filter();
    const idPrompt = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.equal(idPrompt?.validation, undefined);
    const { titles, request } = await listed();
    assert.equal(request.query.contains, `query:${SAMPLE_REFS.insight}`, 'the removed pair is gone');
    assert.ok(titles.includes('Weekly product review'), titles.join(', '));
    assert.ok(!titles.includes('Pricing experiment notes'), 'its insight is a legacy ph-insight node, not a query');
  });

  it('as text: takes hyphens, refuses underscores with the fix, and warns of the legacy insight target', async () => {
    harness.window.pick('Contains').pick('Edit as Text').type('feature_flag:true').pick('Done').pick(undefined);
    await filter();
    const refused = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.equal(refused?.severity, 'error');
    assert.match(refused?.validation ?? '', /"feature_flag:true" finds nothing.*Did you mean feature-flag:true\?/);

    harness.window.prompts.length = 0;
    harness.window.pick('Contains').pick('Edit as Text').type('feature-flag:true, insight').pick('Done').pick('Apply');
    await filter();
    const warned = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.equal(warned?.severity, 'warning', 'a warning lets it through');
    assert.match(warned?.validation ?? '', /finds only old ph-insight nodes.*query:<short id>/);
    const { titles, request } = await listed();
    assert.equal(request.query.contains, 'feature-flag:true, insight');
    assert.deepEqual(titles.filter((title) => title === 'Pricing experiment notes'), ['Pricing experiment notes']);
  });

  it('dates: takes a time ago as PostHog reads it and names the time zone naive dates are read in', async () => {
    harness.window.pick('Modified after').type('-36500d').pick('Apply');
    await filter();
    const datePrompt = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.equal(datePrompt?.validation, undefined);
    assert.match(datePrompt?.prompt ?? '', /in the project's time zone: Europe\/London/);
    const { titles, request } = await listed();
    assert.equal(request.query.date_from, '-36500d');
    assert.equal(request.status, 200);
    assert.ok(titles.length > 0, 'every notebook is newer than a hundred years');
  });
});
