import * as vscode from 'vscode';
import { markdownLine } from '../../common/markdown';
import { escapeIcons, oneSafeLine } from '../../common/text';
import { Disposable } from '../../workbench/disposable';
import { type CaretDecoration, untrustedMarkdown, type WindowApi } from '../../workbench/window';
import type { NotebookEditors } from './notebookEditors';
import { parseNotebookPath } from '../model/notebookPaths';
import type { Author, NotebookSession, NotebookSessions, SessionChange } from '../session';

/** How long a status bar message about a remote change stays. */
const STATUS_MS = 5_000;
/** The fewest milliseconds between two repaints of a notebook's carets: a burst of presence is one repaint. */
export const REPAINT_MS = 250;
/** How often others' carets are looked at again (a caret without a ping for a minute goes). */
const CARET_REFRESH_MS = 15_000;

/**
 * Live editing as the user sees it: who changed an open notebook (the status bar and the log name them, a
 * person or an agent), who else is in it (their carets, with names, as editor decorations, and their names in
 * the status bar), and the user's own caret sent to them (unless posthogExplorer.notebooks.shareCaret is off).
 * Everything shown goes through the window seam.
 */
export class NotebookPresence extends Disposable {
  private shareCaret = true;
  private readonly status: vscode.StatusBarItem;
  private readonly painted = new Set<string>();
  /** The clients whose carets each notebook showed last: one more is told the user's caret at once. */
  private readonly present = new WeakMap<NotebookSession, Set<string>>();
  private lastCaret: { uri: vscode.Uri; offset: number } | undefined;
  /** Sessions whose carets changed, painted together at most every REPAINT_MS. */
  private readonly toPaint = new Set<NotebookSession>();
  private repaint: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly scheme: string,
    private readonly sessions: NotebookSessions,
    private readonly editors: NotebookEditors,
    private readonly window: Pick<WindowApi, 'editors' | 'setStatusBarMessage' | 'createStatusBarItem' | 'state'>,
    private readonly log: Pick<vscode.LogOutputChannel, 'info'>,
  ) {
    super();
    this.status = this._register(window.createStatusBarItem('posthogExplorer.notebookPresence', vscode.StatusBarAlignment.Right, 100));
    this.status.name = vscode.l10n.t('PostHog: others in this notebook');
    this._register(sessions.onDidChange(({ session, change }) => this.onChange(session, change)));
    this._register(window.editors.onDidMoveCaret((uri, offset) => this.caretMoved(uri, offset)));
    this._register(window.editors.onDidChangeActive(() => this.showNames()));
    // The user's edits need no repaint: decorations move with the text they are in.
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.painted.delete(document.uri.toString())) {
          this.window.editors.showCarets(document.uri, []);
        }
      }),
    );
    // A resting caret is not sent again: it costs the key's budget, and a newcomer is told it when they arrive.
    const refresh = setInterval(() => this.refresh(), CARET_REFRESH_MS);
    this._register({ dispose: () => (clearInterval(refresh), clearTimeout(this.repaint)) });
  }

  /** Whether the user's caret is sent to others (posthogExplorer.notebooks.shareCaret). */
  setShareCaret(share: boolean): void {
    this.shareCaret = share;
  }

  private onChange(session: NotebookSession, change: SessionChange): void {
    const title = `"${oneSafeLine(session.notebook.title ?? session.ref.shortId, 80)}"`;
    const shownTitle = escapeIcons(title);
    switch (change.kind) {
      case 'presence':
        this.paintSoon(session);
        return;
      case 'changed':
        if (change.author) {
          this.tell(vscode.l10n.t('$(sync) {0}: changed by {1} (version {2})', shownTitle, escapeIcons(whoIs(change.author)), change.notebook.version));
        }
        this.log.info(`Notebook ${title} (${session.ref.shortId}): version ${change.notebook.version} by ${change.author ? whoIs(change.author) : 'someone'}; clean editors show it.`);
        return;
      case 'merged':
        this.tell(
          vscode.l10n.t('$(sync) {0}: {1}\'s change merged into your unsaved text (version {2})', shownTitle, escapeIcons(whoIs(change.author)), change.notebook.version),
        );
        this.log.info(
          `Notebook ${title} (${session.ref.shortId}): version ${change.notebook.version} by ${whoIs(change.author)} merged into the unsaved editor ${change.uri}` +
            (change.held.length > 0 ? `, except where the user edited too (lines ${change.held.map((range) => `${range.start + 1}-${range.end}`).join(', ')}).` : '.'),
        );
        return;
      case 'held':
        this.log.info(
          `Notebook ${title} (${session.ref.shortId}): version ${change.notebook.version} by ${whoIs(change.author)} held for the unsaved editor ${change.uri}` +
            (change.held.length > 0 ? ` (it changes lines ${change.held.map((range) => `${range.start + 1}-${range.end}`).join(', ')}, which the user changed too).` : '.'),
        );
        return;
    }
  }

  private tell(text: string): void {
    this.window.setStatusBarMessage(text, STATUS_MS);
  }

  /** Carets changed: painted with every other change of the next REPAINT_MS (one repaint for a burst of presence). */
  private paintSoon(session: NotebookSession): void {
    this.toPaint.add(session);
    this.repaint ??= setTimeout(() => {
      this.repaint = undefined;
      const sessions = [...this.toPaint];
      this.toPaint.clear();
      for (const changed of sessions) {
        this.greetNewcomers(changed, this.paint(changed));
      }
    }, REPAINT_MS);
  }

  /** Others' carets in every open editor of the session's notebook; returns the clients shown. */
  private paint(session: NotebookSession): Set<string> {
    const clients = new Set<string>();
    for (const document of this.editors.documentsOf(session.ref)) {
      const uri = document.uri.toString();
      const shown = session.caretsIn(uri);
      shown.forEach((caret) => clients.add(caret.clientId));
      const carets: CaretDecoration[] = shown.map((caret) => ({
        offset: caret.offset,
        label: caret.author.name,
        colorIndex: colorOf(caret.clientId),
        hover: caret.author.agent
          ? vscode.l10n.t('{0} (an agent) is working here', markdownLine(caret.author.name))
          : vscode.l10n.t('{0} is here (PostHog)', markdownLine(caret.author.name)),
      }));
      if (carets.length > 0 || this.painted.has(uri)) {
        this.window.editors.showCarets(document.uri, carets);
      }
      if (carets.length > 0) {
        this.painted.add(uri);
      } else {
        this.painted.delete(uri);
      }
    }
    this.showNames();
    return clients;
  }

  private refresh(): void {
    for (const session of this.sessions.all()) {
      if (this.editors.documentsOf(session.ref).some((document) => this.painted.has(document.uri.toString()))) {
        this.paint(session);
      }
    }
  }

  /** The names of the others in the active editor's notebook. */
  private showNames(): void {
    const active = this.window.editors.activeUri();
    const session = active && this.sessionOf(active);
    const names = session?.collaborators.names() ?? [];
    if (names.length === 0) {
      this.status.hide();
      return;
    }
    const first = escapeIcons(names[0]!);
    this.status.text = `$(account) ${names.length === 1 ? first : vscode.l10n.t('{0} and {1} more', first, names.length - 1)}`;
    this.status.tooltip = untrustedMarkdown(vscode.l10n.t('Also in this notebook: {0}', names.map((name) => markdownLine(name)).join(', ')));
    this.status.show();
  }

  private caretMoved(uri: vscode.Uri, offset: number): void {
    if (uri.scheme !== this.scheme) {
      return;
    }
    this.lastCaret = { uri, offset };
    if (this.shareCaret) {
      this.sessionOf(uri)?.publishCaret(uri.toString(), offset);
    }
  }

  /** PostHog replays ten seconds of carets to a newcomer: one who arrives after the user's last move is told it now. */
  private greetNewcomers(session: NotebookSession, clients: Set<string>): void {
    const before = this.present.get(session) ?? new Set<string>();
    this.present.set(session, clients);
    if ([...clients].some((client) => !before.has(client))) {
      this.republish(session);
    }
  }

  private republish(session: NotebookSession): void {
    const caret = this.lastCaret;
    if (!caret || !this.shareCaret || !this.window.state.focused || this.window.editors.activeUri()?.toString() !== caret.uri.toString()) {
      return;
    }
    if (this.sessionOf(caret.uri) === session) {
      session.publishCaret(caret.uri.toString(), caret.offset);
    }
  }

  private sessionOf(uri: vscode.Uri): NotebookSession | undefined {
    const path = uri.scheme === this.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    return path?.kind === 'notebook' ? this.sessions.get(path) : undefined;
  }
}

function whoIs(author: Author | undefined): string {
  return author?.name ?? vscode.l10n.t('someone');
}

/** The same collaborator keeps a colour. */
function colorOf(clientId: string): number {
  let hash = 0;
  for (let index = 0; index < clientId.length; index++) {
    hash = (hash * 31 + clientId.charCodeAt(index)) >>> 0;
  }
  return hash;
}
