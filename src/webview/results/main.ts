/// <reference lib="dom" />
// The Results webview: a section per query card, in the order the extension first sent them. It makes no
// request of its own and checks every message it gets.
import { parseResultsExtensionMessage, ResultsPanelStateSchema, type ResultsExtensionMessage, type ResultsWebviewMessage } from '../../results/protocol';
import { el } from '../shared/dom';
import { t } from './l10n';
import { ResultSectionView } from './section';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

class ResultsPage {
  private readonly sections = new Map<string, ResultSectionView>();
  private readonly heading = el('h1', {}, t('Results'));
  private readonly empty = el('p', { class: 'note' }, t('No results yet: run a query card or a HogQL document.'));
  private readonly list = el('div', { class: 'sections' });

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
        this.vscode.setState(ResultsPanelStateSchema.parse({ uri: message.uri, title: message.title }));
        return;
      case 'section':
        return this.sectionOf(message.id).update(message);
      case 'rows':
        this.sections.get(message.id)?.rows(message);
        return;
    }
  }

  private sectionOf(id: string): ResultSectionView {
    let section = this.sections.get(id);
    if (!section) {
      section = new ResultSectionView(id, (message) => this.send(message));
      this.sections.set(id, section);
      this.list.append(section.element);
      this.empty.hidden = true;
    }
    return section;
  }

  private send(message: ResultsWebviewMessage): void {
    this.vscode.postMessage(message);
  }
}

const page = new ResultsPage(acquireVsCodeApi());
window.addEventListener('message', (event: MessageEvent) => {
  const parsed = parseResultsExtensionMessage(event.data);
  if (parsed.ok) {
    page.receive(parsed.message);
  } else {
    console.warn(`Ignored a malformed message from the extension: ${parsed.problem}`);
  }
});
page.start(document.getElementById('app')!);
