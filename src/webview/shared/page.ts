/// <reference lib="dom" />
// What every panel's script does with VS Code: one webview API (messages out, state kept over a reload), and
// every message in checked against the panel's protocol before its page sees it.
import type { ParseResult } from '../../common/webviewMessages';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface PanelPage<M> {
  receive(message: M): void;
  start(app: HTMLElement): void;
}

/** Builds the page with VS Code's API, hands it each valid message from the extension, and starts it in #app. */
export function runPanelPage<M>(create: (vscode: VsCodeApi) => PanelPage<M>, parse: (data: unknown) => ParseResult<M>): void {
  const page = create(acquireVsCodeApi());
  window.addEventListener('message', (event: MessageEvent) => {
    const parsed = parse(event.data);
    if (parsed.ok) {
      page.receive(parsed.message);
    } else {
      console.warn(`Ignored a malformed message from the extension: ${parsed.problem}`);
    }
  });
  page.start(document.getElementById('app')!);
}
