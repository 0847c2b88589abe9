import { InvalidBaseUrlError } from './errors';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const INGESTION_ONLY_HOSTS: Record<string, string> = {
  'us.i.posthog.com': 'https://us.posthog.com',
  'eu.i.posthog.com': 'https://eu.posthog.com',
};

/** True for hosts that never leave this machine: localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host === '[::1]' || host === '::1') {
    return true;
  }
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

/**
 * Turns what a user typed into the base URL the client uses: origin plus an optional path prefix
 * (self-hosted under /posthog), without a trailing slash. https is required except on loopback.
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = (input ?? '').trim();
  if (!trimmed) {
    throw new InvalidBaseUrlError('Enter the address of your PostHog instance, e.g. https://us.posthog.com.');
  }
  let url: URL;
  try {
    url = new URL(SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new InvalidBaseUrlError(`"${describeInput(trimmed)}" is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidBaseUrlError(`The PostHog URL must start with https:// (got ${url.protocol}//).`);
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError('The PostHog URL must not contain a user name or password.');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new InvalidBaseUrlError(
      `The PostHog URL must use https:// (plain http is only allowed for localhost); got http://${url.host}.`,
    );
  }
  if (url.search || url.hash) {
    throw new InvalidBaseUrlError('The PostHog URL must not contain a query (?…) or fragment (#…).');
  }
  const apiHost = INGESTION_ONLY_HOSTS[url.hostname];
  if (apiHost) {
    throw new InvalidBaseUrlError(`${url.hostname} only accepts captured events; use ${apiHost} instead.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

/** The input without anything that looks like credentials, safe to echo back in a message. */
function describeInput(input: string): string {
  return input.replace(/\/\/[^/@]*@/, '//…@').slice(0, 200);
}
