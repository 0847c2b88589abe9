import { createHash } from 'node:crypto';
import { createSecureContext, rootCertificates, SecureContext } from 'node:tls';
import { Agent, Dispatcher, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { isLoopbackHost } from './baseUrl';

/**
 * How a client reaches its server: VS Code's `http.proxy`, `http.noProxy`, `http.proxyStrictSSL` and the
 * certificates to trust, as plain values (this module knows nothing of VS Code).
 */
export interface NetworkOptions {
  /** Proxy URL (`http://user:password@proxy:3128`); empty or absent: the environment's HTTPS_PROXY / HTTP_PROXY. */
  proxy?: string;
  /** Hosts reached without the proxy (`corp.example`, `.corp.example`, `host:8443`, `*`); when not empty, NO_PROXY is not read. */
  noProxy?: readonly string[];
  /** Check server and proxy certificates (default true). Off only when the user turned http.proxyStrictSSL off. */
  strictSSL?: boolean;
  /** Authorities (PEM) trusted on top of Node's bundled roots: the system's and NODE_EXTRA_CA_CERTS. */
  ca?: readonly string[];
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Which way requests to one server go; holds no credentials. */
export interface NetworkRoute {
  /** The proxy's URL without user name and password; absent for a direct connection. */
  proxy?: string;
  /** Where the proxy came from: 'option', or the environment variable's name (e.g. HTTPS_PROXY). */
  proxySource?: string;
  /** A proxy value that is not used because it is not an http:// or https:// URL, and where it came from. */
  ignoredProxy?: string;
  /** Why a configured proxy is not used: a loopback target, or the noProxy entry (option or NO_PROXY) that matched. */
  bypass?: { reason: 'loopback' } | { reason: 'noProxy'; entry: string; source: 'option' | string };
}

export interface PoolOptions {
  connections: number;
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

/**
 * Decides the route as VS Code does for its own requests: loopback hosts always direct; the noProxy option
 * when it has entries, else NO_PROXY; then the proxy option, else HTTPS_PROXY / HTTP_PROXY.
 */
export function networkRoute(target: URL, options: NetworkOptions = {}): NetworkRoute {
  const env = options.env ?? process.env;
  const proxy = configuredProxy(target, options, env);
  if (!proxy) {
    return {};
  }
  if (!isProxyUrl(proxy.url)) {
    return { ignoredProxy: proxy.source };
  }
  if (isLoopbackHost(target.hostname)) {
    return { bypass: { reason: 'loopback' } };
  }
  const noProxy = noProxyList(options, env);
  const entry = matchingNoProxyEntry(target, noProxy.entries);
  if (entry !== undefined) {
    return { bypass: { reason: 'noProxy', entry, source: noProxy.source } };
  }
  return { proxy: withoutCredentials(proxy.url), proxySource: proxy.source };
}

/**
 * The undici dispatcher for requests to `target`: a plain Agent when the route is direct, undici's
 * ProxyAgent for the proxy option (credentials in its URL become Proxy-Authorization), undici's
 * EnvHttpProxyAgent for a proxy from the environment. Certificates: Node's bundled roots plus `ca`.
 */
export function createDispatcher(target: URL, options: NetworkOptions, pool: PoolOptions): { dispatcher: Dispatcher; route: NetworkRoute } {
  const route = networkRoute(target, options);
  const tls = tlsOptions(options, pool.connectMs);
  const agentOptions = {
    connections: pool.connections,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    headersTimeout: pool.headersMs,
    bodyTimeout: pool.bodyMs,
  };
  if (!route.proxy) {
    return { dispatcher: new Agent({ ...agentOptions, connect: tls }), route };
  }
  const proxied = { ...agentOptions, requestTls: tls, proxyTls: tls };
  if (route.proxySource === 'option') {
    return { dispatcher: new ProxyAgent({ ...proxied, uri: (options.proxy ?? '').trim() }), route };
  }
  const env = options.env ?? process.env;
  const dispatcher = new EnvHttpProxyAgent({
    ...proxied,
    connect: tls,
    httpProxy: envValue(env, 'http_proxy', 'HTTP_PROXY')?.value ?? '',
    httpsProxy: envValue(env, 'https_proxy', 'HTTPS_PROXY')?.value ?? '',
    noProxy: noProxyList(options, env).entries.join(','),
  });
  return { dispatcher, route };
}

function tlsOptions(options: NetworkOptions, connectMs: number) {
  return {
    timeout: connectMs,
    rejectUnauthorized: options.strictSSL !== false,
    ...(options.ca?.length ? { secureContext: secureContextTrusting(options.ca) } : {}),
  };
}

const secureContexts = new Map<string, SecureContext>();

/**
 * A TLS context trusting Node's roots plus `ca`, shared by the clients that trust the same set: building one
 * parses every certificate (about 0.1 s for a system bundle), which a `ca` option would redo per connection.
 */
function secureContextTrusting(ca: readonly string[]): SecureContext {
  const key = createHash('sha256').update(ca.join('\n')).digest('hex');
  let context = secureContexts.get(key);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, ...ca] });
    if (secureContexts.size >= 4) {
      secureContexts.delete(secureContexts.keys().next().value as string);
    }
    secureContexts.set(key, context);
  }
  return context;
}

/** The proxy that applies to the target's scheme, before the no-proxy list, with where it came from. */
function configuredProxy(target: URL, options: NetworkOptions, env: Readonly<Record<string, string | undefined>>): { url: string; source: string } | undefined {
  const setting = options.proxy?.trim();
  if (setting) {
    return { url: setting, source: 'option' };
  }
  const fromEnv =
    target.protocol === 'https:'
      ? (envValue(env, 'https_proxy', 'HTTPS_PROXY') ?? envValue(env, 'http_proxy', 'HTTP_PROXY'))
      : envValue(env, 'http_proxy', 'HTTP_PROXY');
  return fromEnv && { url: fromEnv.value, source: fromEnv.name };
}

function isProxyUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The first non-empty variable among names (undici reads the lower-case one first). */
function envValue(env: Readonly<Record<string, string | undefined>>, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) {
      return { name, value };
    }
  }
  return undefined;
}

/** The noProxy option when it has entries (VS Code then ignores NO_PROXY), else NO_PROXY / no_proxy. */
function noProxyList(options: NetworkOptions, env: Readonly<Record<string, string | undefined>>): { entries: string[]; source: string } {
  if (options.noProxy?.length) {
    return { entries: [...options.noProxy], source: 'option' };
  }
  const fromEnv = envValue(env, 'no_proxy', 'NO_PROXY');
  return { entries: (fromEnv?.value ?? '').split(/[,\s]+/).filter(Boolean), source: fromEnv?.name ?? 'NO_PROXY' };
}

/**
 * The no-proxy entry that covers the target, if any: `*` covers everything, `name` and `.name` (or
 * `*.name`) cover the host and its subdomains, `name:port` only that port. Same rules as undici's
 * EnvHttpProxyAgent and VS Code's http.noProxy.
 */
export function matchingNoProxyEntry(target: URL, entries: readonly string[]): string | undefined {
  const host = target.hostname.toLowerCase().replace(/\.$/, '');
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  return entries.find((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') {
      return true;
    }
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1] : entry).replace(/^\*?\./, '');
    if (!name || (parsed && Number(parsed[2]) !== port)) {
      return false;
    }
    return host === name || host.endsWith(`.${name}`);
  });
}

/** The proxy URL as it may be shown: scheme, host and port only. */
export function withoutCredentials(proxyUrl: string): string {
  try {
    const url = new URL(proxyUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(a proxy URL that is not valid)';
  }
}
