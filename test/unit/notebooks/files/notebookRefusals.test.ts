import { workspace } from '../../support/vscode';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { NotebookRefusals } from '../../../../src/notebooks/files/notebookRefusals';
import { ContentRefusedError } from '../../../../src/notebooks/session';

/** The editor glue under node's test runner, with the `vscode` stand-in (test/unit/support/vscode.ts). */
const uri = vscode.Uri.parse('posthog://c1/1/notebooks/Weekly%20review%20(abc123).md');

test('a refusal is shown at the node PostHog refused, in PostHog words, until the file closes', () => {
  const refusals = new NotebookRefusals();
  refusals.show(uri, new ContentRefusedError('Invalid node type "ph-nope".', { line: 4, column: 0, endLine: 6, endColumn: 3 }));
  const [diagnostic] = refusals.of(uri);
  assert.equal(diagnostic?.message, 'PostHog refused this content: Invalid node type "ph-nope".');
  assert.equal(diagnostic?.source, 'PostHog');
  assert.deepEqual([diagnostic?.range.start.line, diagnostic?.range.end.line, diagnostic?.range.end.character], [4, 6, 3]);

  const other = vscode.Uri.parse('posthog://c1/1/notebooks/Other%20(def456).md');
  workspace.closed.fire({ uri: other });
  assert.equal(refusals.of(uri).length, 1, 'closing another file keeps it');
  workspace.closed.fire({ uri: vscode.Uri.parse(uri.toString()) });
  assert.equal(refusals.of(uri).length, 0, 'closing the file clears it');
  refusals.dispose();
});

test('a refusal without a place is shown at the top of the file', () => {
  const refusals = new NotebookRefusals();
  refusals.show(uri, new ContentRefusedError('Content is too large.', undefined));
  const [diagnostic] = refusals.of(uri);
  assert.deepEqual([diagnostic?.range.start.line, diagnostic?.range.end.line], [0, 0]);
  refusals.dispose();
});
