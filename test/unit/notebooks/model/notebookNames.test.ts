import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isCurrentName, planRename } from '../../../../src/notebooks/model/notebookNames';

const notebook = { short_id: 'aB3dE5fG', title: 'Q3: Revenue / Growth?' };

describe('notebook names', () => {
  test('the current names are the title\'s file names and the bare short id, in either form', () => {
    assert.ok(isCurrentName('Q3- Revenue - Growth- (aB3dE5fG).md', notebook));
    assert.ok(isCurrentName('Q3- Revenue - Growth- (aB3dE5fG).json', notebook));
    assert.ok(isCurrentName('aB3dE5fG.md', notebook));
    assert.ok(!isCurrentName('Old title (aB3dE5fG).md', notebook), 'an old title is not a current name');
    assert.ok(!isCurrentName('zZ9yY8xX.md', notebook));
  });

  test('Rename Notebook…: the title is sent as typed, however the file name shows it, and long titles whole', () => {
    const long = 'A'.repeat(150);
    assert.deepEqual(planRename({ ...notebook, title: 'Old' }, 'markdown', 'Q3- Revenue - Growth- (aB3dE5fG).md', 'Q3: Revenue / Growth?'), {
      kind: 'retitle',
      title: 'Q3: Revenue / Growth?',
    });
    assert.deepEqual(planRename(notebook, 'json', `${'A'.repeat(79)}… (aB3dE5fG).json`, long), { kind: 'retitle', title: long });
    assert.deepEqual(planRename(notebook, 'markdown', 'Q3- Revenue - Growth- (aB3dE5fG).md', 'Q3: Revenue / Growth?'), { kind: 'move' });
  });

  test('a file name the title already gives moves the file and changes nothing on PostHog (it would lose ":", "/" and "?")', () => {
    assert.deepEqual(planRename(notebook, 'markdown', 'Q3- Revenue - Growth- (aB3dE5fG).md'), { kind: 'move' });
  });

  test('a file name typed in the explorer says the title', () => {
    assert.deepEqual(planRename(notebook, 'markdown', 'Weekly numbers (aB3dE5fG).md'), { kind: 'retitle', title: 'Weekly numbers' });
  });

  test('a name without the notebook\'s short id is refused: another notebook\'s (bare or in brackets), a one-word name, none at all', () => {
    for (const name of ['zZ9yY8xX.md', 'Another notebook (zZ9yY8xX).md', 'Oneword.md', 'No id here.md', 'Title (aB3dE5fG) copy.md']) {
      assert.deepEqual(planRename(notebook, 'markdown', name), { kind: 'refuse', reason: 'otherNotebook' }, name);
      assert.deepEqual(planRename(notebook, 'markdown', name, 'A typed title'), { kind: 'refuse', reason: 'otherNotebook' }, name);
    }
  });

  test('the extension stays, and the bare short id gives no title', () => {
    assert.deepEqual(planRename(notebook, 'markdown', 'Title (aB3dE5fG).json'), { kind: 'refuse', reason: 'otherForm' });
    assert.deepEqual(planRename(notebook, 'markdown', 'aB3dE5fG.md'), { kind: 'refuse', reason: 'noTitle' });
  });
});
