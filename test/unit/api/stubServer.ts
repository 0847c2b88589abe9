import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type StubHandler = (request: StubRequest, response: http.ServerResponse, index: number) => void | Promise<void>;

export interface Stub {
  url: string;
  port: number;
  requests: StubRequest[];
  /** Highest number of requests the stub was handling at the same time. */
  maxInFlight(): number;
  close(): Promise<void>;
}

/** A tiny node:http server on 127.0.0.1 that records every request and lets the test answer it. */
export async function startStub(handler: StubHandler): Promise<Stub> {
  const requests: StubRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      response.on('close', () => inFlight--);
      try {
        await handler(request, response, requests.length - 1);
      } catch (error) {
        response.statusCode = 599;
        response.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** A port nothing listens on (bound, read and released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Records injected sleeps instead of waiting. */
export function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/**
 * A handler that forwards every request to `target` unchanged, Host header included, so links the
 * target builds point back at the proxy (used to watch traffic to the local API).
 */
export function proxyTo(target: string): StubHandler {
  const { hostname, port } = new URL(target);
  return (request, response) =>
    new Promise<void>((resolve) => {
      const upstream = http.request(
        { hostname, port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.on('end', resolve);
        },
      );
      upstream.on('error', () => {
        response.socket?.destroy();
        resolve();
      });
      upstream.end(request.body);
    });
}
