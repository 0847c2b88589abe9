export { type Discovery, ExplorerModel, type OrganizationSummary } from './explorerModel';
export { insightUrl, notebookUrl, organizationSettingsUrl, projectSettingsUrl, projectUrl } from './webUrls';
export { MEMBERSHIP_LEVEL, mayCreateProjects, mayDeleteProjects } from './permissions';
export { deletionOf, DELETION_READS_PER_ORGANIZATION, type ProjectDeletion } from './projectDeletions';
