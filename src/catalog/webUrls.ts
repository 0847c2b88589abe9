/**
 * Pages of the PostHog web app. Its routes are project-scoped (/project/<id>/...): opening one also
 * makes that project, and so its organization, the current one in the browser.
 */
export function projectUrl(baseUrl: string, projectId: number): string {
  return `${trim(baseUrl)}/project/${projectId}`;
}

export function projectSettingsUrl(baseUrl: string, projectId: number): string {
  return `${projectUrl(baseUrl, projectId)}/settings/project`;
}

export function notebookUrl(baseUrl: string, projectId: number, shortId: string): string {
  return `${projectUrl(baseUrl, projectId)}/notebooks/${encodeURIComponent(shortId)}`;
}

export function insightUrl(baseUrl: string, projectId: number, shortId: string): string {
  return `${projectUrl(baseUrl, projectId)}/insights/${encodeURIComponent(shortId)}`;
}

/**
 * PostHog has no organization route with an id: the organization settings page shows the current
 * organization, so it is opened through one of the organization's projects when there is one.
 */
export function organizationSettingsUrl(baseUrl: string, anyProjectId?: number): string {
  return anyProjectId === undefined
    ? `${trim(baseUrl)}/settings/organization`
    : `${projectUrl(baseUrl, anyProjectId)}/settings/organization`;
}

function trim(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}
