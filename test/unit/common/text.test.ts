import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { escapeMarkdown, markdownLine } from '../../../src/common/markdown';
import { capLength, escapeIcons, oneSafeLine } from '../../../src/common/text';
import { assertLinear } from '../notebooks/markdown/linearCheck';

describe('oneSafeLine', () => {
  test('line breaks of every kind become one space, so nothing starts a line of its own', () => {
    assert.equal(oneSafeLine('Ann\nLee'), 'Ann Lee');
    assert.equal(oneSafeLine('Ann\r\n\r\nLee\u2028x\u2029y\u0085z\vq\fw\tv'), 'Ann Lee x y z q w v');
    assert.equal(oneSafeLine('\n>>>>>>> ours\nInjected text\n'), '>>>>>>> ours Injected text');
  });

  test('other controls, bidi controls and lone surrogates show as U+FFFD', () => {
    assert.equal(oneSafeLine('a\u0000b\u001bc\u007fd\u009be'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
    for (const bidi of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c']) {
      assert.equal(oneSafeLine(`Q3 ${bidi}txt.exe`), 'Q3 \uFFFDtxt.exe', `U+${bidi.charCodeAt(0).toString(16)}`);
    }
    assert.equal(oneSafeLine('a\ud800b\udc00c'), 'a\uFFFDb\uFFFDc');
    assert.equal(oneSafeLine('emoji \ud83d\ude00 and \u200d joiner'), 'emoji \ud83d\ude00 and \u200d joiner', 'pairs and joiners stay');
  });

  test('trims, collapses spaces and caps the length with an ellipsis', () => {
    assert.equal(oneSafeLine('   Ann    Lee   '), 'Ann Lee');
    assert.equal(oneSafeLine('x'.repeat(500)), `${'x'.repeat(199)}…`);
    assert.equal(oneSafeLine('abcdef', 4), 'abc…');
  });

  test('a cut never splits a surrogate pair', () => {
    assert.equal(capLength('ab\ud83d\ude00cd', 4), 'ab…');
    assert.equal(capLength('abc', 3), 'abc');
  });

  test('runs in linear time on a huge hostile string', () => {
    const hostile = (size: number) => '\u202e\n \u0000'.repeat(size);
    assertLinear('oneSafeLine', (size) => oneSafeLine(hostile(size)), 125_000);
    assert.ok(oneSafeLine(hostile(1_000_000)).length <= 200);
  });
});

describe('escapeMarkdown', () => {
  const markdown = new MarkdownIt({ linkify: true });
  const hostile = [
    '[click](https://evil.example/phish)',
    '![](https://tracker.example/pixel.png)',
    'https://evil.example/x and www.evil.example',
    'ann@evil.example',
    '<img src=x onerror=alert(1)>',
    '&#x202e;txt.exe &amp;',
    '~~gone~~ **bold** `code` # heading',
  ];

  test('a server string renders as its own text: no link, no image, no markup, no entity', () => {
    for (const text of hostile) {
      const html = markdown.renderInline(escapeMarkdown(text));
      assert.doesNotMatch(html, /<a |<img|<s>|<del>|<strong>|<code>/, text);
      const shown = html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
      assert.equal(shown, text);
    }
  });

  test('markdownLine makes a multi-line name one escaped line', () => {
    assert.equal(markdownLine('Ann\n\n![x](https://t.example/p.png)'), 'Ann \\!\\[x\\]\\(https\\://t\\.example/p\\.png\\)');
  });
});

describe('a teammate\'s name shown literally', () => {
  const name = '$(bug) [x](https://evil) ![i](https://host/i.png) $(sync~spin) $(not an icon)';

  /** VS Code's rule for labels with icons (renderLabelWithIcons): `$(name)` is an icon unless a backslash precedes it, which is dropped. */
  function shownLabel(label: string): { text: string; icons: string[] } {
    const icons: string[] = [];
    const text = label.replace(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g, (_whole, escaped: string | undefined, icon: string) => {
      if (escaped) {
        return `$(${icon})`;
      }
      icons.push(icon);
      return '';
    });
    return { text, icons };
  }

  test('in the status bar: no icon, the name as it is', () => {
    assert.deepEqual(shownLabel(name).icons, ['bug', 'sync~spin'], 'the model sees icons in the raw name');
    assert.deepEqual(shownLabel(`$(account) ${escapeIcons(name)}`), { text: ` ${name}`, icons: ['account'] });
  });

  test('in a hover (Markdown, untrusted): no link, no image, the name as it is', () => {
    const html = new MarkdownIt({ linkify: true }).renderInline(markdownLine(name));
    assert.doesNotMatch(html, /<a |<img/);
    assert.equal(html.replace(/&amp;/g, '&'), name);
  });
});
