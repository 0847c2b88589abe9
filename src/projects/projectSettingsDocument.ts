import * as vscode from 'vscode';
import { AdminOnlySettingsError, type Project, PostHogError } from '../api';
import { Disposable } from '../workbench/disposable';
import type { ConnectionSession } from '../connections';
import { ModificationClock, type ProjectDocumentHandler, type ProjectDocumentTarget, reloadAfterSave } from '../documents';
import { ProjectOperations } from './projectOperations';
import { describeProblems, refusedFieldProblems, serializeSettings } from './settingsText';

/** The file name of the settings document in every project's directory of the posthog file system. */
export const SETTINGS_DOCUMENT_NAME = 'project.posthog.json';


interface Loaded {
  readonly organizationId: string;
  /** The project the editor's text was made from: the baseline a save is diffed against. */
  project: Project;
  bytes: Uint8Array;
  mtime: number;
  ctime: number;
  loadedAt: number;
  deleted?: boolean;
  /** The written text's size, reported until the reload after a save. */
  savedSize?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * posthog://<connection>/<project>/project.posthog.json: the full project as JSON. Saving sends the
 * changed writable fields in one PATCH; a document that cannot be saved is refused with what and where.
 */
export class ProjectSettingsDocument extends Disposable implements ProjectDocumentHandler {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly loaded = new Map<string, Loaded>();
  private readonly clock = new ModificationClock();

  async stat(target: ProjectDocumentTarget): Promise<vscode.FileStat> {
    const entry = this.loaded.get(target.uri.toString()) ?? (await this.load(target));
    return {
      type: vscode.FileType.File,
      ctime: entry.ctime,
      mtime: entry.mtime,
      size: entry.savedSize ?? entry.bytes.byteLength,
      permissions: entry.deleted ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async read(target: ProjectDocumentTarget): Promise<Uint8Array> {
    const cached = this.loaded.get(target.uri.toString());
    // stat() has just fetched it when the editor opens the document: no second request.
    const entry = cached && (cached.deleted || Date.now() - cached.loadedAt < 2_000) ? cached : await this.load(target);
    return entry.bytes;
  }

  async write(target: ProjectDocumentTarget, content: Uint8Array): Promise<void> {
    const key = target.uri.toString();
    const entry = this.loaded.get(key) ?? (await this.load(target));
    if (entry.deleted) {
      throw new Error(vscode.l10n.t('Not saved: this project was deleted.'));
    }
    const operations = new ProjectOperations(target.session.client, entry.organizationId);
    let result;
    try {
      result = await operations.saveSettings(entry.project, decoder.decode(content));
    } catch (error) {
      if (error instanceof AdminOnlySettingsError && error.fields.length > 0) {
        const problems = refusedFieldProblems(decoder.decode(content), error.fields, error.detail ?? error.userMessage);
        throw new Error(vscode.l10n.t('Not saved: {0}', describeProblems(problems).replace(/\n/g, ' ')), { cause: error });
      }
      if (error instanceof PostHogError) {
        throw new Error(vscode.l10n.t('Not saved: {0}', error.userMessage), { cause: error });
      }
      throw error;
    }
    if (result.status === 'refused') {
      throw new Error(vscode.l10n.t('Not saved, nothing was sent to PostHog. {0}', describeProblems(result.problems).replace(/\n/g, ' ')));
    }
    if (result.status === 'unchanged') {
      return;
    }
    // VS Code reads the file's stat right after the write: report the written text until then, and
    // afterwards what PostHog now has (updated_at, normalised values), so that the clean editor reloads.
    entry.project = result.project;
    entry.bytes = encoder.encode(serializeSettings(result.project));
    entry.savedSize = content.byteLength;
    entry.mtime = this.clock.next();
    entry.loadedAt = Date.now();
    reloadAfterSave(() => {
      entry.savedSize = undefined;
      entry.mtime = this.clock.next();
      this.changed.fire(target.uri);
    });
  }

  /** Fetches the project again and lets open editors reload (e.g. after a rename or a token reset). */
  async refresh(session: ConnectionSession, projectId: number): Promise<void> {
    for (const [key, entry] of this.loaded) {
      const uri = vscode.Uri.parse(key);
      if (uri.authority === session.connection.id && entry.project.id === projectId && !entry.deleted) {
        await this.load({ uri, connectionId: uri.authority, projectId, name: SETTINGS_DOCUMENT_NAME, session }).catch(() => undefined);
        this.changed.fire(uri);
      }
    }
  }

  /** The project is gone: its documents turn read-only, saving is refused, and editors close. */
  markDeleted(connectionId: string, projectId: number): vscode.Uri[] {
    const uris: vscode.Uri[] = [];
    for (const [key, entry] of this.loaded) {
      const uri = vscode.Uri.parse(key);
      if (uri.authority === connectionId && entry.project.id === projectId) {
        entry.deleted = true;
        entry.mtime = this.clock.next();
        uris.push(uri);
      }
    }
    return uris;
  }

  private async load(target: ProjectDocumentTarget): Promise<Loaded> {
    const key = target.uri.toString();
    const previous = this.loaded.get(key);
    const organizationId = previous?.organizationId ?? (await organizationOf(target.session, target.projectId));
    const project = await new ProjectOperations(target.session.client, organizationId).get(target.projectId);
    const bytes = encoder.encode(serializeSettings(project));
    const same = previous && !previous.savedSize && decoder.decode(previous.bytes) === decoder.decode(bytes);
    const entry: Loaded = {
      organizationId,
      project,
      bytes,
      ctime: previous?.ctime ?? (Date.parse(project.created_at ?? '') || Date.now()),
      mtime: same ? previous.mtime : this.clock.next(),
      loadedAt: Date.now(),
    };
    this.loaded.set(key, entry);
    return entry;
  }

}

/** The organization a project belongs to, from what the explorer has listed. */
export async function organizationOf(session: ConnectionSession, projectId: number): Promise<string> {
  for (const organization of await session.model.organizations()) {
    const projects = await session.model.projects(organization.id).catch(() => []);
    if (projects.some((project) => project.id === projectId)) {
      return organization.id;
    }
  }
  throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('Project {0} is not in any organization this key can see.', projectId));
}
