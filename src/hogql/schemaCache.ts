import type { DatabaseSchemaQueryResponse } from '../api';
import type { PropertyName } from './propertyNames';

/** A project's tables and fields, as completion offers them. */
export interface SchemaTable {
  readonly name: string;
  /** PostHog's kind of table: posthog, system, data_warehouse, view, … */
  readonly type: string;
  readonly fields: readonly SchemaField[];
}

export interface SchemaField {
  readonly name: string;
  /** PostHog's field type: string, integer, datetime, json, lazy_table, … */
  readonly type: string;
  /** For a field that leads to another table (person, pdi): that table. */
  readonly table?: string;
}

/** What completion knows of a project: its tables and the property names of events and persons (with types where known). */
export interface ProjectSchema {
  readonly tables: readonly SchemaTable[];
  readonly eventProperties: readonly PropertyName[];
  readonly personProperties: readonly PropertyName[];
}

/** A DatabaseSchemaQuery answer as a list of tables, in PostHog's order. */
export function schemaTables(response: DatabaseSchemaQueryResponse): SchemaTable[] {
  return Object.entries(response.tables).map(([key, table]) => ({
    name: table.name || key,
    type: table.type,
    fields: Object.entries(table.fields).map(([fieldKey, field]) => ({
      name: field.name || fieldKey,
      type: field.type,
      ...(field.table ? { table: field.table } : {}),
    })),
  }));
}

export interface SchemaCacheOptions {
  /** How long a project's schema is used before it is asked again (read at each use: a setting). */
  readonly maxAgeMs: () => number;
  readonly now?: () => number;
  /** A load failed (logged; completion keeps what it had). */
  readonly onError?: (key: string, error: unknown) => void;
  /** A load finished: open completions may ask again. */
  readonly onLoaded?: (key: string) => void;
  /** Every schema was forgotten (the user asked for fresh ones). */
  readonly onClear?: () => void;
}

interface Entry {
  value?: ProjectSchema;
  error?: unknown;
  loadedAt: number;
  loading?: Promise<void>;
}

/**
 * One schema per project. `peek` answers at once from what is cached (never waiting for PostHog, so that
 * completion never blocks typing) and starts a load in the background when there is none or it is old; one
 * load per project at a time.
 */
export class SchemaCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(
    private readonly load: (key: string) => Promise<ProjectSchema>,
    private readonly options: SchemaCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The cached schema (maybe old, maybe none yet); loads a fresh one in the background when due. */
  peek(key: string): ProjectSchema | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.now() - entry.loadedAt >= this.options.maxAgeMs()) {
      void this.refresh(key);
    }
    return entry?.value;
  }

  /** Loads the project's schema again (the command, or `peek` when due); shares a load under way. */
  refresh(key: string): Promise<void> {
    const entry = this.entries.get(key) ?? { loadedAt: Number.NEGATIVE_INFINITY };
    this.entries.set(key, entry);
    entry.loading ??= this.load(key).then(
      (value) => {
        entry.value = value;
        entry.error = undefined;
        entry.loadedAt = this.now();
        entry.loading = undefined;
        this.options.onLoaded?.(key);
      },
      (error: unknown) => {
        // Not asked again at every keystroke: a failed load waits as long as a loaded schema does.
        entry.error = error;
        entry.loadedAt = this.now();
        entry.loading = undefined;
        this.options.onError?.(key, error);
      },
    );
    return entry.loading;
  }

  /** Why the project's last load failed, if it did. */
  lastError(key: string): unknown {
    return this.entries.get(key)?.error;
  }

  /** Forgets every project's schema: the next use loads it again. */
  clear(): void {
    this.entries.clear();
    this.options.onClear?.();
  }
}
