import * as vscode from 'vscode';
import { extraCertificates, type NetworkOptions } from '../api';

/** VS Code's settings that decide how the client reaches PostHog. */
export const NETWORK_SETTINGS = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL', 'http.systemCertificates'];

/**
 * The network options of a client created now: VS Code's proxy settings, and the authorities to trust
 * (the system's when http.systemCertificates is on, and NODE_EXTRA_CA_CERTS, read at this moment).
 * What was read and what could not be (never fatal) go to the log.
 */
export function networkOptions(log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>): NetworkOptions {
  const http = vscode.workspace.getConfiguration('http');
  const certificates = extraCertificates({ systemCertificates: http.get<boolean>('systemCertificates', true) });
  if (certificates.sources.length) {
    log.info(`Certificates trusted besides Node's own: ${certificates.sources.join(', ')}`);
  }
  for (const problem of certificates.problems) {
    log.warn(`Certificates: ${problem}.`);
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
