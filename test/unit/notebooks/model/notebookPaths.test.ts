import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { projectDocumentPath } from '../../../../src/common/documentPaths';
import {
  fileNameTitle,
  notebookFileName,
  notebookPath,
  notebookShortIdOf,
  parseNotebookPath,
  titleFromFileName,
} from '../../../../src/notebooks/model/notebookPaths';

describe('posthog file system paths', () => {
  test('a notebook path reads as its title and resolves by short id', () => {
    const path = notebookPath(12, 'aB3dE5fG', 'Weekly review', 'json');
    assert.equal(path, '/12/notebooks/Weekly review (aB3dE5fG).json');
    assert.deepEqual(parseNotebookPath('environment', path), {
      kind: 'notebook',
      connectionId: 'environment',
      projectId: 12,
      shortId: 'aB3dE5fG',
      form: 'json',
    });
  });

  test('the Markdown file of a notebook sits beside its JSON file and finds the same notebook', () => {
    const path = notebookPath(12, 'aB3dE5fG', 'Weekly review', 'markdown');
    assert.equal(path, '/12/notebooks/Weekly review (aB3dE5fG).md');
    assert.deepEqual(parseNotebookPath('c1', path), { kind: 'notebook', connectionId: 'c1', projectId: 12, shortId: 'aB3dE5fG', form: 'markdown' });
    const bare = parseNotebookPath('c1', '/12/notebooks/aB3dE5fG.md');
    assert.equal(bare?.kind === 'notebook' && `${bare.shortId} ${bare.form}`, 'aB3dE5fG markdown');
    assert.equal(parseNotebookPath('c1', '/12/notebooks/Weekly review (aB3dE5fG).markdown'), undefined);
  });

  test('the title part is cosmetic: a stale title or a bare short id finds the same notebook', () => {
    const stale = parseNotebookPath('c1', '/12/notebooks/Old name (aB3dE5fG).json');
    const bare = parseNotebookPath('c1', '/12/notebooks/aB3dE5fG.json');
    assert.equal(stale?.kind === 'notebook' && stale.shortId, 'aB3dE5fG');
    assert.equal(bare?.kind === 'notebook' && bare.shortId, 'aB3dE5fG');
  });

  test('titles with slashes, brackets and odd characters stay one file name and keep the short id last', () => {
    const name = notebookFileName('Q3 / Q4: plans (draft) <v2>', 'xY12zZ90', 'json');
    assert.equal(name, 'Q3 - Q4- plans (draft) -v2- (xY12zZ90).json');
    assert.equal(notebookShortIdOf(name), 'xY12zZ90');
    assert.ok(!name.slice(0, -5).includes('/'));
  });

  test('bidi controls, line breaks and other controls never reach a file or tab name', () => {
    const name = notebookFileName('Invoice \u202egpj.exe\u202c\nQ3\u0000\u2066x\u2069 \ud800', 'xY12zZ90', 'markdown');
    assert.equal(name, 'Invoice -gpj.exe- Q3-x- - (xY12zZ90).md');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(name, /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/);
    assert.equal(notebookShortIdOf(name), 'xY12zZ90');
  });

  test('untitled and very long titles get a readable name', () => {
    assert.equal(fileNameTitle(null), 'Untitled');
    assert.equal(fileNameTitle('   '), 'Untitled');
    const long = fileNameTitle('x'.repeat(300));
    assert.ok(long.length <= 80 && long.endsWith('…'));
  });

  test('directories and project documents', () => {
    assert.deepEqual(parseNotebookPath('c1', '/'), { kind: 'connection', connectionId: 'c1' });
    assert.deepEqual(parseNotebookPath('c1', '/7'), { kind: 'project', connectionId: 'c1', projectId: 7 });
    assert.deepEqual(parseNotebookPath('c1', '/7/notebooks/'), { kind: 'notebooks', connectionId: 'c1', projectId: 7 });
    assert.deepEqual(parseNotebookPath('c1', projectDocumentPath(7, 'project.json')), {
      kind: 'projectDocument',
      connectionId: 'c1',
      projectId: 7,
      name: 'project.json',
    });
  });

  test('paths outside the layout are not found', () => {
    assert.equal(parseNotebookPath('', '/7'), undefined);
    assert.equal(parseNotebookPath('c1', '/seven/notebooks'), undefined);
    assert.equal(parseNotebookPath('c1', '/7/notebooks/a/b.json'), undefined);
    assert.equal(parseNotebookPath('c1', '/7/notebooks/notes.txt'), undefined);
    assert.equal(parseNotebookPath('c1', '/7/notebooks/My notes.json'), undefined);
  });

  test('a renamed file name gives the new title', () => {
    assert.equal(titleFromFileName('New title (aB3dE5fG).json', 'aB3dE5fG'), 'New title');
    assert.equal(titleFromFileName('New title.json', 'aB3dE5fG'), 'New title');
    assert.equal(titleFromFileName('New title (aB3dE5fG).md', 'aB3dE5fG'), 'New title');
    assert.equal(titleFromFileName('New title.md', 'aB3dE5fG'), 'New title');
    assert.equal(titleFromFileName('aB3dE5fG.md', 'aB3dE5fG'), undefined);
  });
});
