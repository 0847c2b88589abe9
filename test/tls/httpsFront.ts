import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServerCredentials } from './throwawayCa';

export interface FrontRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** An HTTPS server on 127.0.0.1 that passes every request on to an http origin (e.g. the local API). */
export interface HttpsFront {
  readonly port: number;
  /** What arrived over TLS, in order. */
  readonly requests: FrontRequest[];
  close(): Promise<void>;
}

export async function startHttpsFront(credentials: ServerCredentials, origin: string): Promise<HttpsFront> {
  const requests: FrontRequest[] = [];
  const target = new URL(origin);
  const server = https.createServer(credentials, (incoming, response) => {
    requests.push({ method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers });
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`front: ${error.message}`);
    });
    incoming.pipe(outgoing);
  });
  server.on('tlsClientError', () => {
    // a client refusing the certificate closes the handshake: expected in the certificate tests
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
