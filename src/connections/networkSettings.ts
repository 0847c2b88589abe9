import * as vscode from 'vscode';
import { extraCertificates, type NetworkOptions, type NetworkRoute } from '../api';

/** VS Code's settings that decide how the client reaches PostHog. */
export const NETWORK_SETTINGS = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL', 'http.systemCertificates'];

/**
 * The network options of a client created now: VS Code's proxy settings, and the authorities to trust
 * (the system's when http.systemCertificates is on, and NODE_EXTRA_CA_CERTS, read at this moment).
 * What could not be read is reported through `warn`, never fatal.
 */
export function networkOptions(warn: (message: string) => void): NetworkOptions {
  const http = vscode.workspace.getConfiguration('http');
  const certificates = extraCertificates({ systemCertificates: http.get<boolean>('systemCertificates', true) });
  for (const problem of certificates.problems) {
    warn(`Certificates: ${problem}.`);
  }
  return {
    proxy: http.get<string>('proxy', '').trim(),
    noProxy: http.get<string[]>('noProxy', []).filter((entry) => typeof entry === 'string' && entry.trim() !== ''),
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    ca: certificates.certificates,
  };
}

export function affectsNetwork(event: vscode.ConfigurationChangeEvent): boolean {
  return NETWORK_SETTINGS.some((setting) => event.affectsConfiguration(setting));
}

/** The route in the log's words, e.g. "via proxy http://proxy.corp:3128 (http.proxy)". Holds no credentials. */
export function describeRoute(route: NetworkRoute): string {
  if (route.proxy) {
    return route.proxySource === 'option'
      ? `via proxy ${route.proxy} (http.proxy)`
      : `via proxy ${route.proxy} (${route.proxySource} from the environment)`;
  }
  const ignored = route.ignoredProxy
    ? ` (${route.ignoredProxy === 'option' ? 'http.proxy' : route.ignoredProxy} ignored: not an http:// or https:// URL)`
    : '';
  if (route.bypass?.reason === 'loopback') {
    return 'direct (this machine is never reached through a proxy)';
  }
  if (route.bypass?.reason === 'noProxy') {
    const list = route.bypass.source === 'option' ? 'http.noProxy' : route.bypass.source;
    return `direct (matches ${route.bypass.entry} in ${list})`;
  }
  return `direct${ignored}`;
}
