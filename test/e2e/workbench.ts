// Drives VS Code's web workbench the way a person does: keyboard, command palette, clicks on what is shown.
// Selectors follow VS Code 1.100's DOM (checked against the VS Code server from code-server@4.100.3).
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';

const DEFAULT_TIMEOUT_MS = 20_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function exactText(text: string, flags = ''): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`, flags);
}

function attributeValue(value: string): string {
  return JSON.stringify(value);
}

export class Workbench {
  constructor(
    readonly page: Page,
    private readonly timeout = DEFAULT_TIMEOUT_MS,
  ) {}

  /** Opens the workbench at `url` (e.g. http://127.0.0.1:P/?folder=/dir) and waits until it is usable. */
  static async open(page: Page, url: string, timeout = DEFAULT_TIMEOUT_MS): Promise<Workbench> {
    const workbench = new Workbench(page, timeout);
    await page.goto(url);
    await workbench.waitUntilReady();
    return workbench;
  }

  async waitUntilReady(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
    await this.page.locator('.part.activitybar').waitFor({ timeout: 60_000 });
  }

  // ---- Command palette and quick input ---------------------------------------------------------------------

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  private get quickInputBox(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  private quickInputRows(): Locator {
    return this.quickInput.locator('.quick-input-list .monaco-list-row');
  }

  private quickInputRow(label: string): Locator {
    return this.quickInputRows().filter({ has: this.page.locator('.label-name', { hasText: exactText(label) }) });
  }

  /** Opens the command palette with F1 (Ctrl+Shift+P as a second try); early keys can be lost while loading. */
  async openCommandPalette(): Promise<Locator> {
    const deadline = Date.now() + this.timeout;
    const keys = ['F1', 'Control+Shift+P'];
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press(keys[attempt % keys.length]!);
      try {
        await this.quickInputBox.waitFor({ timeout: 3_000 });
        if ((await this.quickInputBox.inputValue()).startsWith('>')) return this.quickInputBox;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error('The command palette did not open');
      await this.page.keyboard.press('Escape');
    }
  }

  /**
   * Runs a command by its title as shown in the palette, e.g. "PostHog: Show Logs". Right after the workbench
   * loads, extensions' commands join the palette late, and the palette closes when focus moves (e.g. a panel
   * revealing itself); so the title is typed again, and the palette reopened, until the timeout.
   */
  async runCommand(title: string): Promise<void> {
    const deadline = Date.now() + this.timeout;
    const row = this.quickInputRow(title).first();
    for (;;) {
      try {
        const input = (await this.quickInputBox.isVisible()) ? this.quickInputBox : await this.openCommandPalette();
        await input.fill('>', { timeout: 2_000 });
        await input.fill(`>${title}`, { timeout: 2_000 });
        await row.waitFor({ timeout: 1_500 });
        await row.click({ timeout: 2_000 });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`Could not run command "${title}": ${String(error)}`);
      }
    }
  }

  /** Labels of the items the open quick pick shows. */
  async quickPickItems(): Promise<string[]> {
    await this.quickInput.waitFor({ timeout: this.timeout });
    const labels = await this.quickInputRows().locator('.label-name').allInnerTexts();
    return labels.map((label) => label.trim());
  }

  async quickInputTitle(): Promise<string> {
    await this.quickInput.waitFor({ timeout: this.timeout });
    return (await this.quickInput.locator('.quick-input-title').innerText()).trim();
  }

  /** Picks the item with this label in the open quick pick; types the label into its filter first by default. */
  async pickQuickItem(label: string, { filter = true }: { filter?: boolean } = {}): Promise<void> {
    await this.quickInputBox.waitFor({ timeout: this.timeout });
    if (filter) await this.quickInputBox.fill(label);
    const row = this.quickInputRow(label).first();
    await row.waitFor({ timeout: this.timeout });
    await row.click();
  }

  /** Accepts the open quick input (Enter), e.g. after checking items of a multi-select pick. */
  async acceptQuickInput(): Promise<void> {
    await this.quickInputBox.press('Enter');
  }

  async dismissQuickInput(): Promise<void> {
    await this.quickInputBox.press('Escape');
    await this.quickInput.waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /** Types into the open input box, replacing its value, and submits with Enter unless `submit` is false. */
  async answerInputBox(text: string, { submit = true }: { submit?: boolean } = {}): Promise<void> {
    await this.quickInputBox.waitFor({ timeout: this.timeout });
    // A prompt that replaces the previous one can reset the box while we type: type until it holds the text.
    await this.poll(async () => {
      await this.quickInputBox.fill(text);
      return (await this.quickInputBox.inputValue()) === text;
    }, `the input box holds "${text.slice(0, 12)}…"`);
    if (!submit) return;
    await this.quickInputBox.press('Enter');
    // The next prompt (or none) takes over only once the answer has left the box.
    const answered = async () => !(await this.quickInput.isVisible()) || (await this.quickInputBox.inputValue().catch(() => '')) !== text;
    await this.poll(answered, 'the input box takes the answer').catch(() => undefined);
  }

  async inputBoxValue(): Promise<string> {
    return this.quickInputBox.inputValue({ timeout: this.timeout });
  }

  /** The line under the input box: the prompt, or the validation message while the value is invalid. */
  async inputBoxMessage(): Promise<string> {
    const message = this.quickInput.locator('.quick-input-message');
    await message.waitFor({ timeout: this.timeout });
    return (await message.innerText()).trim();
  }

  /** Waits until the input box's message matches, e.g. a validation message after typing. */
  async waitForInputBoxMessage(expected: string | RegExp): Promise<string> {
    const message = this.quickInput.locator('.quick-input-message');
    await message.filter({ hasText: expected }).waitFor({ timeout: this.timeout });
    return (await message.innerText()).trim();
  }

  // ---- Modal dialogs and notifications ---------------------------------------------------------------------

  get dialog(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  /** Message and detail of the open modal dialog. */
  async dialogText(): Promise<string> {
    await this.dialog.waitFor({ timeout: this.timeout });
    return (await this.dialog.locator('.dialog-message').innerText()).trim();
  }

  async pressDialogButton(label: string): Promise<void> {
    await this.dialog.waitFor({ timeout: this.timeout });
    await this.dialog.getByRole('button', { name: label, exact: true }).click();
    await this.dialog.waitFor({ state: 'hidden', timeout: this.timeout });
  }

  private get toasts(): Locator {
    return this.page.locator('.notifications-toasts .notification-toast');
  }

  /** Texts of the notifications shown as toasts right now. */
  async notificationTexts(): Promise<string[]> {
    const texts = await this.toasts.locator('.notification-list-item-message').allInnerTexts();
    return texts.map((text) => text.trim());
  }

  /** Waits for a toast whose message contains `text` (or matches it) and returns it. */
  async waitForNotification(text: string | RegExp): Promise<Locator> {
    const toast = this.toasts.filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) }).first();
    await toast.waitFor({ timeout: this.timeout });
    return toast;
  }

  /**
   * A notification, as a toast or else in the notification center, which this opens. VS Code adds a
   * notification to the center without a toast in some moments (seen right after a modal dialog closes);
   * a person then finds it under the bell.
   */
  async findNotification(text: string | RegExp): Promise<Locator> {
    const toast = this.toasts.filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) }).first();
    const deadline = Date.now() + Math.min(this.timeout, 5_000);
    while (Date.now() < deadline) {
      if (await toast.isVisible()) return toast;
      await this.page.waitForTimeout(100);
    }
    await this.runCommand('Notifications: Show Notifications');
    const entry = this.page
      .locator('.notifications-center .notification-list-item')
      .filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) })
      .first();
    await entry.waitFor({ timeout: this.timeout });
    return entry;
  }

  async pressNotificationButton(text: string | RegExp, button: string): Promise<void> {
    const toast = await this.waitForNotification(text);
    await toast.getByRole('button', { name: button, exact: true }).click();
  }

  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
  }

  // ---- Views and trees -------------------------------------------------------------------------------------

  private get sidebar(): Locator {
    return this.page.locator('.part.sidebar');
  }

  /** Opens the view container (activity bar entry) with this title, e.g. "PostHog"; leaves it open if it is. */
  async openViewContainer(title: string): Promise<void> {
    const entry = this.page
      .locator('.part.activitybar li.action-item')
      .filter({ has: this.page.locator(`a.action-label[aria-label^=${attributeValue(title)}]`) })
      .first();
    await entry.waitFor({ timeout: this.timeout });
    const isOpen = (await entry.getAttribute('class'))?.split(/\s+/).includes('checked') && (await this.sidebar.isVisible());
    if (!isOpen) await entry.click();
    await this.sidebar
      .locator('.composite.title .title-label h2')
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(title)}`, 'i') })
      .waitFor({ timeout: this.timeout });
  }

  /** Waits until the sidebar shows no progress bar (views still loading show one). */
  async waitForSidebarIdle(): Promise<void> {
    await this.poll(async () => (await this.sidebar.locator('.monaco-progress-container.active').count()) === 0, 'the sidebar is idle');
  }

  /** The sidebar pane of the view with this name, or the whole sidebar when no name is given. */
  view(name?: string): Locator {
    if (!name) return this.sidebar;
    return this.sidebar
      .locator('.pane')
      .filter({ has: this.page.locator('.pane-header .title', { hasText: exactText(name, 'i') }) });
  }

  /** The row of the tree item with this label (exact). */
  treeItem(label: string, viewName?: string): Locator {
    return this.view(viewName)
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exactText(label) }) })
      .first();
  }

  /** The description VS Code shows beside a tree item's label ('' when it has none). */
  async treeItemDescription(label: string, viewName?: string): Promise<string> {
    const description = this.treeItem(label, viewName).locator('.label-description');
    return (await description.count()) > 0 ? (await description.first().innerText()).trim() : '';
  }

  /** Whether the tree item's icon is this codicon (e.g. "trash"). */
  async treeItemHasIcon(label: string, codicon: string, viewName?: string): Promise<boolean> {
    return (await this.treeItem(label, viewName).locator(`.codicon-${codicon}`).count()) > 0;
  }

  /** Waits until a view shows the tree item with this label, and returns its row. */
  async waitForTreeItem(label: string, viewName?: string): Promise<Locator> {
    const row = this.treeItem(label, viewName);
    await row.waitFor({ timeout: this.timeout });
    return row;
  }

  /** Labels of the tree items a view renders right now (it may still be loading: see waitForTreeItem). */
  async treeItemLabels(viewName?: string): Promise<string[]> {
    const labels = await this.view(viewName).locator('.monaco-list-row .label-name').allInnerTexts();
    return labels.map((label) => label.trim());
  }

  async expandTreeItem(label: string, viewName?: string): Promise<Locator> {
    const row = this.treeItem(label, viewName);
    await row.waitFor({ timeout: this.timeout });
    if ((await row.getAttribute('aria-expanded')) === 'false') {
      // A refresh that replaces the row just as it is clicked drops the click: click again when the row still
      // shows collapsed a while later (never sooner, so that a slow expansion is not toggled back).
      let clickedAt = 0;
      await this.poll(async () => {
        if ((await row.getAttribute('aria-expanded')) === 'true') return true;
        if (Date.now() - clickedAt > 2_000) {
          clickedAt = Date.now();
          await row.locator('.monaco-tl-twistie').click();
        }
        return false;
      }, `tree item "${label}" expands`);
    }
    return row;
  }

  async clickTreeItem(label: string, viewName?: string): Promise<void> {
    const row = this.treeItem(label, viewName);
    await row.waitFor({ timeout: this.timeout });
    await row.click();
  }

  /** Clicks an inline action (icon shown on hover) of a tree item, by its title, e.g. "Refresh". */
  async pressTreeItemAction(label: string, actionTitle: string, viewName?: string): Promise<void> {
    const row = this.treeItem(label, viewName);
    await row.hover();
    await row.locator(`.actions .action-label[aria-label^=${attributeValue(actionTitle)}]`).first().click();
  }

  /** Right-clicks a tree item and chooses an entry of its context menu. */
  async chooseTreeItemMenu(label: string, menuItem: string, viewName?: string): Promise<void> {
    const row = this.treeItem(label, viewName);
    await row.click({ button: 'right' });
    const item = this.page.locator('.monaco-menu .action-item').filter({ hasText: exactText(menuItem) }).first();
    // VS Code's menus ignore a click that follows the opening right-click too closely: focus the entry, press Enter.
    // The hover can land before the menu listens for it, so Enter waits until the entry shows it has the focus.
    await this.poll(async () => {
      await item.hover({ timeout: this.timeout });
      return (await item.getAttribute('class'))?.split(/\s+/).includes('focused') ?? false;
    }, `the menu entry "${menuItem}" has the focus`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.monaco-menu').first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /** Right-clicks a tree item and reads its context menu's entries; Escape closes the menu again. */
  async treeItemMenuEntries(label: string, viewName?: string): Promise<string[]> {
    await this.treeItem(label, viewName).click({ button: 'right' });
    const entries = this.page.locator('.monaco-menu .action-item .action-label');
    await entries.first().waitFor({ timeout: this.timeout });
    const texts = (await entries.allInnerTexts()).map((text) => text.trim()).filter((text) => text.length > 0);
    await this.page.keyboard.press('Escape');
    return texts;
  }

  // ---- Editors ---------------------------------------------------------------------------------------------

  /** Opens a workspace file with Quick Open (Ctrl+P), e.g. "notes/today.md", and waits for its editor. */
  async openFile(relativePath: string): Promise<void> {
    const name = path.basename(relativePath);
    await this.page.keyboard.press('Control+P');
    await this.quickInputBox.waitFor({ timeout: this.timeout });
    await this.quickInputBox.fill(relativePath);
    await this.quickInputRow(name).first().waitFor({ timeout: this.timeout });
    await this.quickInputBox.press('Enter');
    await this.poll(async () => (await this.activeEditorTitle()) === name, `the editor of ${relativePath} is active`);
  }

  private get activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Types into the active text editor at its cursor (or at the end with `atEnd`). Auto-closing pairs apply. */
  async typeInEditor(text: string, { atEnd = false }: { atEnd?: boolean } = {}): Promise<void> {
    await this.activeEditor.locator('.view-lines').click();
    if (atEnd) await this.page.keyboard.press('Control+End');
    await this.page.keyboard.type(text);
  }

  /** Saves the active editor with Ctrl+S and waits until its tab is no longer dirty (the file is written). */
  async saveActiveEditor(): Promise<void> {
    const dirtyTab = this.page.locator('.editor-group-container.active .tab.active.dirty');
    // Typing marks the tab dirty a moment later; saving before that would save nothing.
    await dirtyTab.waitFor({ timeout: 2_000 }).catch(() => undefined);
    await this.page.keyboard.press('Control+S');
    await dirtyTab.waitFor({ state: 'detached', timeout: this.timeout });
  }

  async activeEditorTitle(): Promise<string> {
    const tab = this.page.locator('.editor-group-container.active .tab.active .label-name').first();
    await tab.waitFor({ timeout: this.timeout });
    return (await tab.innerText()).trim();
  }

  /** Text of the lines the active editor renders (long documents render only what is in view). */
  async activeEditorText(): Promise<string> {
    await this.activeEditor.waitFor({ timeout: this.timeout });
    return (await this.activeEditor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }

  // ---- Output panel ----------------------------------------------------------------------------------------

  /** Name of the channel the Output panel shows, waiting for the panel to be visible. */
  async outputChannelName(): Promise<string> {
    const select = this.page.locator('.part.panel select.monaco-select-box').filter({ visible: true }).first();
    await select.waitFor({ timeout: this.timeout });
    return select.inputValue();
  }

  async waitForOutputChannel(name: string): Promise<void> {
    await this.poll(async () => (await this.outputChannelName()) === name, `the Output panel shows channel "${name}"`);
  }

  async outputText(): Promise<string> {
    return (await this.page.locator('.part.panel .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  }

  // ---- Webviews --------------------------------------------------------------------------------------------

  /** The content frame of a webview: VS Code nests it in two iframes (host frame, then #active-frame). */
  webview(index = 0): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').nth(index).frameLocator('iframe#active-frame');
  }

  async webviewText(index = 0): Promise<string> {
    const body = this.webview(index).locator('body');
    await body.waitFor({ timeout: this.timeout });
    return (await body.innerText()).trim();
  }

  /** Polls `condition` until it holds; throws naming `what` after the timeout. */
  async poll(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + this.timeout;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Timed out after ${this.timeout} ms waiting until ${what}`);
      await this.page.waitForTimeout(100);
    }
  }

  // ---- Screenshots -----------------------------------------------------------------------------------------

  async screenshot(file: string): Promise<string> {
    await mkdir(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file });
    return file;
  }
}
