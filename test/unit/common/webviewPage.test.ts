import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentSecurityPolicy, createNonce, webviewPageHtml } from '../../../src/common/webviewPage';

describe('events page', () => {
  const cspSource = 'https://*.vscode-cdn.net';
  const page = webviewPageHtml({ cspSource, nonce: 'n0nce', scriptUri: 'https://x/dist/webview/events.js', styleUris: ['https://x/media/events.css'], title: 'Events of <b>x</b>' });

  test('a strict policy: nothing by default, scripts only with the nonce, no inline styles', () => {
    const policy = contentSecurityPolicy(cspSource, 'n0nce');
    assert.match(policy, /^default-src 'none'; /);
    assert.match(policy, /script-src 'nonce-n0nce'(;|$)/);
    assert.match(policy, new RegExp(`style-src ${cspSource.replace(/[.*]/g, '\\$&')}(;|$)`));
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*:|https:(?!\/\/)/);
    assert.ok(page.includes(`<meta http-equiv="Content-Security-Policy" content="${policy}">`));
  });

  test('the one script carries the nonce; the title is escaped', () => {
    assert.equal(page.match(/<script/g)?.length, 1);
    assert.match(page, /<script nonce="n0nce" src="https:\/\/x\/dist\/webview\/events.js"><\/script>/);
    assert.ok(page.includes('<title>Events of &lt;b&gt;x&lt;/b&gt;</title>'));
  });

  test('nonces differ each time', () => {
    assert.notEqual(createNonce(), createNonce());
    assert.match(createNonce(), /^[A-Za-z0-9_-]{20,}$/);
  });
});
