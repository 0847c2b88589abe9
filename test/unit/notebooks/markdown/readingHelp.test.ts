import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { postHogReading, readingIssues, TAG_AS_TEXT } from '../../../../src/notebooks/markdown/readingHelp';
import { scanTags } from '../../../../src/notebooks/markdown/tags';

const issuesOf = (text: string) => readingIssues(scanTags(text), postHogReading(text)).map(({ line, severity, message }) => ({ line, severity, message: message.split(':')[0] }));

describe("a Markdown notebook's editor help follows PostHog's reading", () => {
  test('a tag starting its line is a component: nothing to say', () => {
    assert.deepEqual(issuesOf('# T\n\n<Cohort id={3} />\n\n  <Query query={{"kind":"SavedInsightNode","shortId":"a"}} />\nText after a tag line'), []);
  });

  test('a tag PostHog reads as text (after text, in a list item, in a quote, in a table cell) is a warning at the tag', () => {
    const text = 'See <Cohort id={3} /> here\n\n- <Recording id="r" />\n\n> <Survey id="s" />\n\n| a |\n|---|\n| <Person id="p" /> |';
    assert.deepEqual(
      issuesOf(text).map(({ line, severity, message }) => [line, severity, message]),
      [0, 2, 4, 8].map((line) => [line, 'warning', TAG_AS_TEXT.split(':')[0]]),
    );
  });

  test('a tag PostHog cannot read is an error at its lines, in its words', () => {
    assert.deepEqual(issuesOf('<Cohort id={3} /> is the cohort'), [{ line: 0, severity: 'error', message: 'Unclosed component tag' }]);
    assert.deepEqual(issuesOf('Intro\n<Survey id="s" /> and more\nlines'), [{ line: 1, severity: 'error', message: 'Unclosed component tag' }]);
  });

  test('where the tag scan already says what is wrong, PostHog\'s error is not said twice', () => {
    const text = '<Query query={{"kind":}}\n\nNext';
    assert.ok(scanTags(text).problems.some((problem) => problem.line === 0 && problem.severity === 'error'));
    assert.deepEqual(issuesOf(text), []);
  });
});
