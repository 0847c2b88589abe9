import { normalizeBaseUrl, PostHogError } from '../api';
import type { EnvironmentConnection } from './connectionStore';
import { CLOUD_HOSTS } from './hosts';

/**
 * The connection offered by POSTHOG_HOST and POSTHOG_PERSONAL_API_KEY (dev containers, CI, the demo).
 * Without POSTHOG_HOST the key is for US Cloud. A host that is not acceptable is reported, not used.
 */
export function environmentConnection(
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): EnvironmentConnection | undefined {
  const apiKey = env.POSTHOG_PERSONAL_API_KEY?.trim();
  if (!apiKey) {
    return undefined;
  }
  try {
    return { baseUrl: normalizeBaseUrl(env.POSTHOG_HOST?.trim() || CLOUD_HOSTS[0].baseUrl), apiKey };
  } catch (error) {
    warn(`POSTHOG_HOST is not used: ${error instanceof PostHogError ? error.userMessage : String(error)}`);
    return undefined;
  }
}
