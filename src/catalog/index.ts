export { type Discovery, ExplorerModel, type OrganizationSummary } from './explorerModel';
export { notebookUrl, organizationSettingsUrl, projectSettingsUrl, projectUrl } from './webUrls';
export { MEMBERSHIP_LEVEL, mayCreateProjects, mayDeleteProjects } from './permissions';
