import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunnerMessage } from './protocol';

/** Loopback HTTP endpoint the test-runner extension POSTs its RunnerMessages to. */
export class ReportServer {
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(onMessage: (message: RunnerMessage) => void): Promise<ReportServer> {
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        try {
          onMessage(JSON.parse(body) as RunnerMessage);
          response.writeHead(204).end();
        } catch (error) {
          response.writeHead(400).end(String(error));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new ReportServer(server, `http://127.0.0.1:${port}/report`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
