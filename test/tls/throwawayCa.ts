import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** A key and certificate (PEM) for a test server. */
export interface ServerCredentials {
  key: string;
  cert: string;
}

/**
 * A certificate authority made for one test run with the openssl CLI (/usr/bin/openssl), in a temporary
 * directory: nothing on the machine trusts it unless a test says so (e.g. NODE_EXTRA_CA_CERTS=caFile).
 */
export interface ThrowawayCa {
  /** The authority's certificate, PEM. */
  readonly caPem: string;
  /** A file holding caPem, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  /** A server certificate signed by the authority for these DNS names and IP addresses. */
  issue(names: string[]): ServerCredentials;
  /** A certificate that signs itself (no authority), for these names. */
  selfSigned(names: string[]): ServerCredentials;
  /** Deletes the directory. */
  dispose(): void;
}

export function createThrowawayCa(commonName = 'PostHog Explorer Throwaway Test CA'): ThrowawayCa {
  const dir = mkdtempSync(join(tmpdir(), 'posthog-explorer-ca-'));
  const file = (name: string) => join(dir, name);
  let serial = 0;
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${commonName}`, '-keyout', file('ca.key'), '-out', file('ca.pem'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const caPem = readFileSync(file('ca.pem'), 'utf8');
  return {
    caPem,
    caFile: file('ca.pem'),
    issue(names) {
      const base = file(`server${++serial}`);
      writeFileSync(`${base}.ext`, `subjectAltName=${subjectAltNames(names)}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
      openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-subj', `/CN=${names[0]}`, '-keyout', `${base}.key`, '-out', `${base}.csr`);
      openssl('x509', '-req', '-in', `${base}.csr`, '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
        '-set_serial', String(1000 + serial), '-days', '2', '-extfile', `${base}.ext`, '-out', `${base}.pem`);
      return { key: readFileSync(`${base}.key`, 'utf8'), cert: readFileSync(`${base}.pem`, 'utf8') };
    },
    selfSigned(names) {
      const base = file(`self${++serial}`);
      openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
        '-subj', `/CN=${names[0]}`, '-keyout', `${base}.key`, '-out', `${base}.pem`,
        '-addext', `subjectAltName=${subjectAltNames(names)}`);
      return { key: readFileSync(`${base}.key`, 'utf8'), cert: readFileSync(`${base}.pem`, 'utf8') };
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function subjectAltNames(names: string[]): string {
  return names.map((name) => (isIP(name) ? `IP:${name}` : `DNS:${name}`)).join(',');
}

function openssl(...args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl ${args[0]} failed (is the openssl CLI installed?): ${stderr || String(error)}`);
  }
}
