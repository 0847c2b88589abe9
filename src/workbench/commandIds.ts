/**
 * Every command the extension contributes, by name: the one place an id is written. The manifest test
 * checks this list against package.json both ways; register them with a CommandGroup (./commands.ts).
 */
export const COMMANDS = {
  signIn: 'posthogExplorer.signIn',
  signOut: 'posthogExplorer.signOut',
  switchConnection: 'posthogExplorer.switchConnection',
  addOrganization: 'posthogExplorer.addOrganization',
  addProject: 'posthogExplorer.addProject',
  refresh: 'posthogExplorer.refresh',
  filterNotebooks: 'posthogExplorer.filterNotebooks',
  clearNotebookFilter: 'posthogExplorer.clearNotebookFilter',
  showDeletedNotebooks: 'posthogExplorer.showDeletedNotebooks',
  hideDeletedNotebooks: 'posthogExplorer.hideDeletedNotebooks',
  restoreNotebook: 'posthogExplorer.restoreNotebook',
  showLogs: 'posthogExplorer.showLogs',
  browseEvents: 'posthogExplorer.browseEvents',
  tailEvents: 'posthogExplorer.tailEvents',
  openNotebook: 'posthogExplorer.openNotebook',
  createNotebook: 'posthogExplorer.createNotebook',
  deleteNotebook: 'posthogExplorer.deleteNotebook',
  renameNotebook: 'posthogExplorer.renameNotebook',
  showNotebookActivity: 'posthogExplorer.showNotebookActivity',
  compareNotebookVersion: 'posthogExplorer.compareNotebookVersion',
  restoreNotebookVersion: 'posthogExplorer.restoreNotebookVersion',
  copyNotebookVersion: 'posthogExplorer.copyNotebookVersion',
  openNotebookAsMarkdown: 'posthogExplorer.openNotebookAsMarkdown',
  openNotebookAsJson: 'posthogExplorer.openNotebookAsJson',
  convertToMarkdownNotebook: 'posthogExplorer.convertToMarkdownNotebook',
  overwriteNotebook: 'posthogExplorer.overwriteNotebook',
  discardNotebookChanges: 'posthogExplorer.discardNotebookChanges',
  createProject: 'posthogExplorer.createProject',
  editProjectSettings: 'posthogExplorer.editProjectSettings',
  renameProject: 'posthogExplorer.renameProject',
  toggleProjectFeatures: 'posthogExplorer.toggleProjectFeatures',
  deleteProject: 'posthogExplorer.deleteProject',
  cancelProjectDeletion: 'posthogExplorer.cancelProjectDeletion',
  resetProjectToken: 'posthogExplorer.resetProjectToken',
  copyProjectToken: 'posthogExplorer.copyProjectToken',
  checkDemoData: 'posthogExplorer.checkDemoData',
  showProjectActivity: 'posthogExplorer.showProjectActivity',
  loadMoreProjectActivity: 'posthogExplorer.loadMoreProjectActivity',
  openInBrowser: 'posthogExplorer.openInBrowser',
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName];
