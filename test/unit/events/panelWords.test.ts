import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { webviewPageHtml } from '../../../src/common/webviewPage';
import { fillPlaceholders, PANEL_WORDS } from '../../../src/events/panelWords';

const webviewDir = path.resolve(__dirname, '../../../../src/webview/events');

describe('the events webview in the editor language', () => {
  test('every listed word is used by the webview script, so the list holds no dead strings', () => {
    const script = readdirSync(webviewDir)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => readFileSync(path.join(webviewDir, name), 'utf8'))
      .join('\n');
    const unused = PANEL_WORDS.filter((text) => !script.includes(`t(${JSON.stringify(text).replace(/^"|"$/g, "'")}`));
    assert.deepEqual(unused, []);
  });

  test('the page carries the localised words, escaped, for the script to read', () => {
    const page = webviewPageHtml({ cspSource: 'c', nonce: 'n', scriptUri: 's', styleUris: ['y'], title: 'T', strings: { Apply: 'Anwenden "<jetzt>"' } });
    assert.ok(page.includes('data-l10n="{&quot;Apply&quot;:&quot;Anwenden \\&quot;&lt;jetzt&gt;\\&quot;&quot;}"'), page);
  });

  test('{0} is filled in; other braces stay as they are', () => {
    assert.equal(fillPlaceholders('{0} events loaded', ['1,200']), '1,200 events loaded');
    assert.equal(fillPlaceholders('Properties JSON (a list of {key, value})', []), 'Properties JSON (a list of {key, value})');
    assert.equal(fillPlaceholders('{1} of {0}', ['a']), '{1} of a');
  });
});
