import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request the proxy handled: a CONNECT tunnel or an absolute-form request it forwarded. */
export interface ProxiedRequest {
  kind: 'connect' | 'forward';
  /** host:port for CONNECT, the absolute URL for a forwarded request. */
  target: string;
  headers: http.IncomingHttpHeaders;
  /** Answer of the proxy itself (407 without the expected credentials, 502 when the target is unreachable), or the target's status. */
  status?: number;
}

export interface ForwardProxyOptions {
  /** Host names the proxy resolves itself (e.g. { 'posthog.test': '127.0.0.1' }): a target only reachable through it. */
  hosts?: Record<string, string>;
  /** When set, requests without this user and password in Proxy-Authorization get 407. */
  credentials?: { user: string; password: string };
}

/**
 * A forward proxy for tests on 127.0.0.1: CONNECT tunnels (https targets) and absolute-form requests
 * (http targets). It counts what passes through it and keeps every byte it relays, both ways.
 */
export interface ForwardProxy {
  /** http://127.0.0.1:port (without credentials). */
  readonly url: string;
  readonly port: number;
  readonly requests: ProxiedRequest[];
  /** Every byte relayed so far (requests, tunnels' contents both ways), as latin1 text to search in. */
  seen(): string;
  /** Forgets the requests and bytes recorded so far. */
  clear(): void;
  close(): Promise<void>;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  let chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const record = (chunk: Buffer) => chunks.push(Buffer.from(chunk));
  const resolveHost = (host: string) => options.hosts?.[host.toLowerCase()] ?? host;
  const authorized = (headers: http.IncomingHttpHeaders) => {
    if (!options.credentials) {
      return true;
    }
    const expected = Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64');
    return headers['proxy-authorization'] === `Basic ${expected}`;
  };

  const server = http.createServer((incoming, response) => {
    const entry: ProxiedRequest = { kind: 'forward', target: incoming.url ?? '', headers: incoming.headers };
    requests.push(entry);
    record(Buffer.from(`${incoming.method} ${incoming.url} HTTP/1.1\r\n${rawHeaders(incoming.rawHeaders)}\r\n`, 'latin1'));
    if (!authorized(incoming.headers)) {
      entry.status = 407;
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(incoming.url ?? '');
    } catch {
      entry.status = 400;
      response.writeHead(400).end('absolute-form request expected');
      return;
    }
    const headers = { ...incoming.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const outgoing = http.request(
      { host: resolveHost(target.hostname), port: target.port || 80, method: incoming.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        entry.status = answer.statusCode;
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', record);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => {
      entry.status = 502;
      response.writeHead(502).end();
    });
    incoming.on('data', record);
    incoming.pipe(outgoing);
  });

  server.on('connect', (incoming: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const entry: ProxiedRequest = { kind: 'connect', target: incoming.url ?? '', headers: incoming.headers };
    requests.push(entry);
    record(Buffer.from(`CONNECT ${incoming.url} HTTP/1.1\r\n${rawHeaders(incoming.rawHeaders)}\r\n`, 'latin1'));
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (!authorized(incoming.headers)) {
      entry.status = 407;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = splitHostPort(incoming.url ?? '');
    const upstream = net.connect(port, resolveHost(host), () => {
      entry.status = 200;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        record(head);
        upstream.write(head);
      }
      client.on('data', record);
      upstream.on('data', record);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => {
      if (entry.status === undefined) {
        entry.status = 502;
        client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      }
      upstream.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    seen: () => Buffer.concat(chunks).toString('latin1'),
    clear: () => {
      requests.length = 0;
      chunks = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function rawHeaders(raw: string[]): string {
  let text = '';
  for (let i = 0; i < raw.length; i += 2) {
    text += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  return text;
}

function splitHostPort(authority: string): [string, number] {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
  return match ? [match[1], Number(match[2])] : [authority, 443];
}
