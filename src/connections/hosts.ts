/** The PostHog hosts the extension knows by name, and the pages it links to on any host. */
export interface CloudHost {
  readonly id: 'us' | 'eu';
  readonly label: string;
  readonly baseUrl: string;
}

export const CLOUD_HOSTS: readonly CloudHost[] = [
  { id: 'us', label: 'US Cloud', baseUrl: 'https://us.posthog.com' },
  { id: 'eu', label: 'EU Cloud', baseUrl: 'https://eu.posthog.com' },
];

/** A short name for a host: "US Cloud", "EU Cloud", or the host name of a self-hosted instance. */
export function hostLabel(baseUrl: string): string {
  const cloud = CLOUD_HOSTS.find((host) => host.baseUrl === baseUrl);
  if (cloud) {
    return cloud.label;
  }
  const url = new URL(baseUrl);
  return url.pathname === '/' ? url.host : `${url.host}${url.pathname}`;
}

export function apiKeysPageUrl(baseUrl: string): string {
  return `${baseUrl}/settings/user-api-keys`;
}
