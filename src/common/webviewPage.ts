// A webview's page (the events panel, the Results panel): a strict Content Security Policy and a static
// skeleton. Everything the server sends is put in by the script as text. vscode-free.
import { randomBytes } from 'node:crypto';

export interface PageResources {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  /** Stylesheets, in order (the panel's own, and any its script's bundle brings). */
  styleUris: readonly string[];
  nonce?: string;
  title: string;
  /** The webview's words, localised (e.g. src/events/panelWords.ts): English → the editor's language. */
  strings?: Readonly<Record<string, string>>;
}

export function createNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    // Lit (under @vscode-elements) styles its components with constructable stylesheets: no 'unsafe-inline'.
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function webviewPageHtml(resources: PageResources): string {
  const nonce = resources.nonce ?? createNonce();
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(resources.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${resources.styleUris.map((uri) => `<link rel="stylesheet" href="${attr(uri)}">`).join('\n')}
<title>${attr(resources.title)}</title>
</head>
<body>
<main id="app" aria-busy="true" data-l10n="${attr(JSON.stringify(resources.strings ?? {}))}"></main>
<script nonce="${attr(nonce)}" src="${attr(resources.scriptUri)}"></script>
</body>
</html>`;
}
