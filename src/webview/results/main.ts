/// <reference lib="dom" />
// The Results webview: a section per query card, in the order the extension first sent them. It makes no
// request of its own and checks every message it gets. It keeps a bounded copy of its finished sections in
// its state (SavedResults), which the panel serializer shows again after a window reload.
import { parseResultsExtensionMessage, type ResultsExtensionMessage, type ResultsWebviewMessage } from '../../results/protocol';
import { SavedResults } from '../../results/restoredResults';
import { TimeText } from '../shared/timeText';
import { el } from '../shared/dom';
import { runPanelPage, type PanelPage, type VsCodeApi } from '../shared/page';
import { t } from './l10n';
import { ResultSectionView } from './section';

/** Sections and rows arriving together are saved once, this long after the first of them. */
const SAVE_DELAY_MS = 500;

class ResultsPage implements PanelPage<ResultsExtensionMessage> {
  private readonly sections = new Map<string, ResultSectionView>();
  private readonly heading = el('h1', {}, t('Results'));
  private readonly empty = el('p', { class: 'note' }, t('No results yet: run a query card or a HogQL document.'));
  private readonly list = el('div', { class: 'sections' });
  private readonly saved = new SavedResults();
  private document: { uri: string; title: string } | undefined;
  private times = new TimeText();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly vscode: VsCodeApi) {}

  start(app: HTMLElement): void {
    app.append(this.heading, this.empty, this.list);
    app.removeAttribute('aria-busy');
    this.send({ type: 'ready' });
  }

  receive(message: ResultsExtensionMessage): void {
    switch (message.type) {
      case 'init':
        this.heading.textContent = message.title;
        this.document = { uri: message.uri, title: message.title };
        this.times = new TimeText(message.locale);
        this.scheduleSave();
        return;
      case 'section':
        this.saved.section(message);
        this.scheduleSave();
        return this.sectionOf(message.id).update(message);
      case 'rows':
        if (this.saved.rows(message)) this.scheduleSave();
        this.sections.get(message.id)?.rows(message);
        return;
    }
  }

  private sectionOf(id: string): ResultSectionView {
    let section = this.sections.get(id);
    if (!section) {
      section = new ResultSectionView(id, (message) => this.send(message), (ms) => this.times.at(new Date(ms).toISOString()));
      this.sections.set(id, section);
      this.list.append(section.element);
      this.empty.hidden = true;
    }
    return section;
  }

  private scheduleSave(): void {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      if (!this.document) return;
      const state = this.saved.state(this.document.uri, this.document.title);
      this.vscode.setState(state);
      this.list.dataset['savedSections'] = String(state.sections.length); // what a reload would bring back (tests wait for it)
    }, SAVE_DELAY_MS);
  }

  private send(message: ResultsWebviewMessage): void {
    this.vscode.postMessage(message);
  }
}

runPanelPage((vscode) => new ResultsPage(vscode), parseResultsExtensionMessage);
