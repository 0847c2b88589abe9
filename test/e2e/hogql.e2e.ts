import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { e2e } from './context';

describe('HogQL documents (e2e)', () => {
  it("completes a property name PostHog keeps a definition of, with PostHog's type of it", async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    // Seen long ago: only PostHog's property definitions name it, no recent event does.
    api.store.propertyDefinitionsOf(project.id).add('event', 'legacy_voucher_code', 'SPRING24');
    await workbench.runCommand('View: Close All Editors');
    await workbench.runCommand('PostHog: New HogQL Query');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('FROM events'), 'the HogQL document opens with its starting query');
    await workbench.runCommand('PostHog: Refresh HogQL Schema');

    await page.locator('.editor-group-container.active .view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('select properties.legacy_v', { delay: 20 });
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'legacy_voucher_code' }).first();
    await suggestion.waitFor({ timeout: 15_000 });
    assert.match(await suggestion.innerText(), /event property · String/);
    await page.keyboard.press('Escape');
    await workbench.runCommand('View: Revert and Close Editor');
  });
});
