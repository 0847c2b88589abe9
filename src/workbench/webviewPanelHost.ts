import * as vscode from 'vscode';
import { Disposable } from './disposable';
import { webviewOptions } from './webviewOptions';

/** A file of the extension (`dist/webview/results.js`) as the panel's webview may load it. */
export type AssetUri = (...path: string[]) => string;

/**
 * The extension's side of a webview panel (the events panel, the Results panel): its options (scripts, only
 * the extension's bundles and media), icon and page, every message to `receive`, and one life with the
 * panel: closing the panel disposes this, disposing this closes the panel.
 */
export abstract class WebviewPanelHost extends Disposable {
  private readonly closed = this._register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.closed.event;

  protected constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    page: (asset: AssetUri) => string,
  ) {
    super();
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'posthog.svg');
    webview.html = page((...path) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString());
    this._register(webview.onDidReceiveMessage((data: unknown) => this.receive(data)));
    this._register(
      panel.onDidDispose(() => {
        this.closed.fire();
        this.dispose();
      }),
    );
    this._register({ dispose: () => panel.dispose() });
  }

  /** Handles a message as if the webview had sent it (malformed ones are dropped). */
  abstract receive(data: unknown): Promise<void>;
}
