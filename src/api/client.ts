import { normalizeBaseUrl } from './baseUrl';
import { type RequestBudgets, sharedBudgets } from './budget';
import { RequestLogEntry, Timeouts, Transport } from './http';
import type { NetworkOptions, NetworkRoute } from './network';
import { DEFAULT_PAGE_CONCURRENCY } from './paging';
import { CommentsApi } from './resources/comments';
import { OrganizationsApi, PersonalApiKeysApi, UsersApi } from './resources/discovery';
import { EventsApi } from './resources/events';
import { NotebooksApi } from './resources/notebooks';
import { ProjectsApi } from './resources/projects';
import { PropertyDefinitionsApi } from './resources/propertyDefinitions';
import { QueriesApi } from './resources/queries';
import type { RetryOptions } from './retry';
import { realSleep, type Sleep } from './sleep';

export interface PostHogClientOptions {
  /** What the user typed; normalised with normalizeBaseUrl (throws InvalidBaseUrlError). */
  baseUrl: string;
  /** Personal API key (phx_...). Sent only as the Authorization header, only to baseUrl's origin. */
  apiKey: string;
  /** Pages fetched at once by listAll when the total is known (default 4). */
  pageConcurrency?: number;
  timeouts?: Partial<Timeouts>;
  retry?: RetryOptions;
  /** Called once per attempt, for logging. Entries never contain the key or query strings. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Injectable wait between retries and between the Query API's polls (tests). */
  sleep?: Sleep;
  /** Injectable clock in ms (tests): the Query API's 10-minute polling limit reads it. */
  now?: () => number;
  /** Injectable random source in [0, 1) for retry jitter (tests). */
  random?: () => number;
  /** Proxy and certificates (VS Code's http.* settings); default: direct, or the environment's proxy. */
  network?: NetworkOptions;
  /** The largest successful answer read (default 64 MB, DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Where the key's request budget is kept (default: one per host and key for the whole process). */
  budgets?: RequestBudgets;
}

/** One client per connection (base URL + key), on its own keep-alive connection pool. */
export class PostHogClient {
  readonly baseUrl: string;
  readonly organizations: OrganizationsApi;
  readonly users: UsersApi;
  readonly personalApiKeys: PersonalApiKeysApi;
  readonly projects: ProjectsApi;
  readonly notebooks: NotebooksApi;
  readonly events: EventsApi;
  readonly comments: CommentsApi;
  /** PostHog's Query API (EventsQuery, HogQL, trends, metadata, the database schema); not yet used by the panels. */
  readonly queries: QueriesApi;
  /** Every event and person property PostHog has seen in a project, with its type (HogQL completion). */
  readonly propertyDefinitions: PropertyDefinitionsApi;
  private readonly transport: Transport;

  constructor(options: PostHogClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const budget = (options.budgets ?? sharedBudgets).of(this.baseUrl, options.apiKey);
    this.transport = new Transport({ ...options, baseUrl: this.baseUrl, budget });
    const context = {
      transport: this.transport,
      baseUrl: this.baseUrl,
      pageConcurrency: Math.max(1, Math.floor(options.pageConcurrency ?? DEFAULT_PAGE_CONCURRENCY)),
      budget,
    };
    this.organizations = new OrganizationsApi(context);
    this.users = new UsersApi(context);
    this.personalApiKeys = new PersonalApiKeysApi(context);
    this.projects = new ProjectsApi(context);
    this.notebooks = new NotebooksApi(context);
    this.events = new EventsApi(context);
    this.comments = new CommentsApi(context);
    this.propertyDefinitions = new PropertyDefinitionsApi(context);
    this.queries = new QueriesApi(context, { sleep: options.sleep ?? realSleep, now: options.now ?? Date.now });
  }

  /** Which way this client's requests go (direct or which proxy), without credentials. */
  get route(): NetworkRoute {
    return this.transport.route;
  }

  /** Closes the connection pool; calls in flight fail with ClientDisposedError. */
  dispose(): Promise<void> {
    return this.transport.dispose();
  }
}
