import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

/** Where Linux distributions keep the system's trusted authorities as one PEM bundle (the first found is read). */
export const LINUX_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Alpine, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL, CentOS
  '/etc/ssl/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
];

export interface TrustOptions {
  /** VS Code's http.systemCertificates: also trust the operating system's authorities. */
  systemCertificates: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  readFile?: (path: string) => string;
  /** The operating system's store as Node reads it: default tls.getCACertificates('system') where Node has it (22.15 and later); null: none. */
  systemStore?: (() => string[]) | null;
}

export interface ExtraCertificates {
  /** PEM text of every extra authority found, to add to Node's bundled roots. */
  certificates: string[];
  /** What was read, for the log (e.g. "/etc/ssl/certs/ca-certificates.crt (146 certificates)"). */
  sources: string[];
  /** What could not be read, for the log; never fatal. */
  problems: string[];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The authorities to trust besides Node's bundled ones: the system's bundle on Linux (when asked) and
 * the file named by NODE_EXTRA_CA_CERTS, read now so a variable set after start is honoured too.
 */
export function extraCertificates(options: TrustOptions): ExtraCertificates {
  const env = options.env ?? process.env;
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  const result: ExtraCertificates = { certificates: [], sources: [], problems: [] };
  const systemStore = options.systemStore === undefined ? nodeSystemStore() : options.systemStore;
  if (options.systemCertificates && systemStore) {
    addStore(result, systemStore);
  } else if (options.systemCertificates && (options.platform ?? process.platform) === 'linux') {
    addSystemBundle(result, options.readFile ?? readSystemBundleOnce);
  }
  const extraFile = env.NODE_EXTRA_CA_CERTS?.trim();
  if (extraFile) {
    addFile(result, readFile, extraFile, 'NODE_EXTRA_CA_CERTS');
  }
  return result;
}

/** Node 22.15+ reads the system's store itself (keychain, Windows store, Linux bundles); Node 20 cannot. */
function nodeSystemStore(): (() => string[]) | undefined {
  const getCACertificates = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  return typeof getCACertificates === 'function' ? () => getCACertificates('system') : undefined;
}

function addStore(result: ExtraCertificates, systemStore: () => string[]): void {
  try {
    const certificates = systemStore();
    result.certificates.push(...certificates);
    result.sources.push(`the system's store (${count(certificates.length)})`);
  } catch (error) {
    result.problems.push(`the system's certificates could not be read (${String(error)})`);
  }
}

const systemBundles = new Map<string, string>();

/** The system's bundle changes with the system's packages: read once per session, as VS Code does. */
function readSystemBundleOnce(path: string): string {
  let text = systemBundles.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8');
    systemBundles.set(path, text);
  }
  return text;
}

function addSystemBundle(result: ExtraCertificates, readFile: (path: string) => string): void {
  for (const path of LINUX_CA_BUNDLES) {
    try {
      add(result, readFile(path), path);
      return;
    } catch {
      // not this distribution's path: try the next
    }
  }
  result.problems.push(`no system certificate bundle found (looked in ${LINUX_CA_BUNDLES.join(', ')})`);
}

function addFile(result: ExtraCertificates, readFile: (path: string) => string, path: string, label: string): void {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    result.problems.push(`${label} names ${path}, which could not be read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`);
    return;
  }
  if (!add(result, text, `${label} ${path}`)) {
    result.problems.push(`${label} names ${path}, which holds no PEM certificate`);
  }
}

/** Adds the PEM certificates of a text; false when it holds none. */
function add(result: ExtraCertificates, text: string, source: string): boolean {
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    return false;
  }
  result.certificates.push(...certificates);
  result.sources.push(`${source} (${count(certificates.length)})`);
  return true;
}

function count(certificates: number): string {
  return `${certificates} certificate${certificates === 1 ? '' : 's'}`;
}
