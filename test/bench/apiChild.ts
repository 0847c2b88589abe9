// The local API for the benchmarks, in a process of its own so that its work (routing, JSON encoding) never
// counts as the extension's time. A counting TCP proxy in front of it tells how many connections a client opens.
// Driven over IPC by benchApi.ts.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { startLocalApi, type LocalApi } from '../api-server';
import { makeNotebookContent } from '../api-server/notebook-samples';
import { markdownDoc } from '../api-server/content';
import { webEdit } from '../api-server/collab-control';
import type { Json } from '../api-server/model';
import type { ApiCommand, ApiReply, ChildStart } from './benchApi';

interface Proxy {
  url: string;
  connections: number;
  close(): Promise<void>;
}

/** Forwards every TCP connection to `target` and counts them. */
async function startCountingProxy(target: URL): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = { url: '', connections: 0, close: async () => undefined };
  const server = createServer((client) => {
    proxy.connections++;
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return proxy;
}

/** A ProseMirror document of about `bytes` bytes of JSON, made of the local API's sample nodes. */
function bigDocument(api: LocalApi, bytes: number): Json {
  const content: Json[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const sample = makeNotebookContent(api.store.rng, `Section ${index + 1}`, index) as { content: Json[] };
    for (const node of sample.content) {
      content.push(node);
      size += JSON.stringify(node).length + 1;
    }
  }
  return { type: 'doc', content };
}

async function main(): Promise<void> {
  const start = JSON.parse(process.argv[2] ?? '{}') as ChildStart;
  const api = await startLocalApi({ seed: start.seed, latencyMs: start.latencyMs, demoEvents: start.demoEvents });
  const proxy = await startCountingProxy(new URL(api.url));
  const { store } = api;

  const run = (command: ApiCommand): unknown => {
    switch (command.op) {
      case 'organizationWithProjects': {
        const organization = store.addOrganization(command.name, [{ userId: store.mainUser.id, level: 15 }]);
        store.addProjects(organization.id, command.projects);
        return organization.id;
      }
      case 'projectWithNotebooks': {
        const project = store.createProject(store.organizations[0]!.id, { name: command.name });
        store.addNotebooks(project.id, command.notebooks);
        return project.id;
      }
      case 'bigNotebook': {
        const content = bigDocument(api, command.bytes);
        const notebook = store.createNotebook(command.projectId, { title: 'Big notebook', content });
        return { shortId: notebook.short_id, contentBytes: JSON.stringify(content).length };
      }
      case 'steadyProject': {
        const project = store.createProject(store.organizations[0]!.id, { name: command.name });
        store.addSteadyEvents(project.id, command.count, { perSecond: command.perSecond, clusterEvery: command.clusterEvery, clusterSize: command.clusterSize });
        return project.id;
      }
      case 'projectByName':
        return store.projects.find((project) => project.name === command.name)?.id;
      case 'reset':
        api.clearRequests();
        proxy.connections = 0;
        return undefined;
      case 'traffic':
        return {
          requests: api.requests.map((request) => ({ method: request.method, path: request.path, status: request.status })),
          connections: proxy.connections,
        };
      case 'setLatency':
        api.setLatency(command.ms);
        return undefined;
      case 'markdownNotebook':
        return store.createNotebook(command.projectId, { title: 'Live bench', content: markdownDoc(command.markdown), text_content: command.markdown }).short_id;
      case 'webEdit': {
        const notebook = store.getNotebook(command.projectId, command.shortId);
        if (!notebook) throw new Error(`No notebook ${command.shortId}`);
        return webEdit(store, notebook, command.edit).version;
      }
      case 'close':
        return Promise.all([proxy.close(), api.close()]);
    }
  };

  process.on('message', (message: { id: number; command: ApiCommand }) => {
    Promise.resolve()
      .then(() => run(message.command))
      .then(
        (value): ApiReply => ({ id: message.id, value }),
        (error: unknown): ApiReply => ({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      )
      .then((reply) => {
        process.send?.(reply);
        if (message.command.op === 'close') process.disconnect();
      });
  });
  process.send?.({ id: 0, value: { url: proxy.url, directUrl: api.url, keys: api.keys } } satisfies ApiReply);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
