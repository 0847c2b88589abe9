// A throwaway self-signed certificate for serving the local API over https in tests, made with the
// openssl CLI (a Debian package .ci/run installs). It is valid for 127.0.0.1, ::1 and localhost, for two
// days, and is its own CA: a client trusts it by passing it as `ca`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { TlsIdentity } from './server';

export function throwawayCertificate(): TlsIdentity {
  const dir = mkdtempSync(path.join(tmpdir(), 'posthog-local-api-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=PostHog local API (throwaway)',
      '-addext', 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
