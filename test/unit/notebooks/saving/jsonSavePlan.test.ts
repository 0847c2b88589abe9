import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConflictError, PostHogClient } from '../../../../src/api';
import { editableOf, NotebookDocumentError, serializeNotebook } from '../../../../src/notebooks/model/notebookDocument';
import { ServedJsonVersions, type SavePlan } from '../../../../src/notebooks/saving/jsonSavePlan';
import { type LocalApi } from '../../../api-server';
import { edited, notebook } from '../fixtures';
import { withLocalApiClient } from '../../../support/localApiClient';

function patchOf(plan: SavePlan) {
  assert.equal(plan.kind, 'patch');
  return plan.kind === 'patch' ? plan : assert.fail();
}

function refusal(history: ServedJsonVersions, text: string): string {
  try {
    history.planSave(text);
  } catch (error) {
    assert.ok(error instanceof NotebookDocumentError, String(error));
    return error.message;
  }
  assert.fail('expected the save to be refused');
}

describe('notebook save planning', () => {
  test('unchanged text sends nothing', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    assert.deepEqual(history.planSave(serializeNotebook(notebook())), { kind: 'unchanged', displayed: 3, base: 3 });
  });

  test('whitespace and key order alone are no change', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const compact = JSON.stringify(JSON.parse(serializeNotebook(notebook())));
    assert.equal(history.planSave(compact).kind, 'unchanged');
  });

  test('an edit sends content and the version the text is based on, and only the changed fields', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const plan = patchOf(history.planSave(edited(serializeNotebook(notebook()), (d) => (d.title = 'Renamed'))));
    assert.equal(plan.body.version, 3);
    assert.equal(plan.body.title, 'Renamed');
    assert.ok('content' in plan.body);
    assert.ok(!('text_content' in plan.body));
  });

  test('text_content follows the content', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const text = edited(serializeNotebook(notebook()), (d) => (d.content.content[1].content[0].text = 'Signups are down '));
    assert.equal(patchOf(history.planSave(text)).body.text_content, 'Weekly review\n\nSignups are down 12%');
  });

  test('text_content the user edited is kept', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const text = edited(serializeNotebook(notebook()), (d) => {
      d.content.content[1].content[0].text = 'Signups are down ';
      d.text_content = 'my summary';
    });
    assert.equal(patchOf(history.planSave(text)).body.text_content, 'my summary');
  });

  test('text_content left out of the text stays as it was while the content is unchanged', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const text = edited(serializeNotebook(notebook()), (d) => {
      delete d.text_content;
      d.title = 'x';
    });
    const plan = patchOf(history.planSave(text));
    assert.ok(!('text_content' in plan.body), 'content unchanged: text_content stays as shown');
  });

  test('two saves in a row: the second is based on the version the first produced (the editor\'s base)', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const first = edited(serializeNotebook(notebook()), (d) => (d.title = 'One'));
    const plan = patchOf(history.planSave(first));
    const saved = notebook({ title: 'One', version: 4, last_modified_at: '2026-01-04T00:00:00.000Z' });
    history.recordServed(saved);
    // The editor still shows version 3 in its read-only block; its base is version 4.
    const base = { version: 4, editable: editableOf(saved), displayed: plan.displayed };
    assert.equal(history.planSave(first, base).kind, 'unchanged');
    const second = edited(first, (d) => (d.title = 'Two'));
    assert.equal(patchOf(history.planSave(second, base)).body.version, 4);
    assert.equal(patchOf(history.planSave(second)).body.version, 3, 'without the base, the version the text shows');
  });

  test('after a reload the text shows the new version and is based on it', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    history.recordServed(notebook({ version: 4 }));
    const text = edited(serializeNotebook(notebook({ version: 4 })), (d) => (d.title = 'Three'));
    assert.equal(patchOf(history.planSave(text)).body.version, 4);
  });

  test('edited read-only fields are refused, naming the field and its line', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    history.recordServed(notebook());
    const text = serializeNotebook(notebook());
    const byOther = text.replace('"last_modified_by": "Ann Lee <ann@example.com>"', '"last_modified_by": "Bob"');
    const line = byOther.split('\n').findIndex((l) => l.includes('"Bob"')) + 1;
    assert.match(refusal(history, byOther), new RegExp(`Line ${line}, column \\d+: _readonly\\.last_modified_by is read-only`));
    assert.match(refusal(history, text.replace('"version": 3', '"version": 9')), /_readonly\.version is read-only and was changed \(this editor has version 3\)/);
    assert.match(refusal(history, text.replace('"version": 3', '"version": "3"')), /_readonly\.version is read-only/);
    assert.match(refusal(history, edited(text, (d) => delete d._readonly)), /_readonly\.version is read-only/);
    assert.match(refusal(history, edited(text, (d) => (d._readonly.note = 'x'))), /_readonly\.note is not part of the read-only block/);
  });

  test('without a recorded read (e.g. after a restart) the displayed version is the base', () => {
    const history = new ServedJsonVersions('aB3dE5fG');
    const text = edited(serializeNotebook(notebook()), (d) => (d.title = 'x'));
    assert.equal(patchOf(history.planSave(text)).body.version, 3);
    assert.match(refusal(new ServedJsonVersions('other123'), text), /short_id is read-only and must be "other123"/);
  });
});

describe('notebook save planning against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let shortId: string;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
    shortId = api.store.notebooksOf(projectId).find((n) => !n.deleted)!.short_id;
  });

  test('open, edit, save twice: each PATCH carries the current version and the version advances', async () => {
    const history = new ServedJsonVersions(shortId);
    const opened = await client.notebooks.get(projectId, shortId);
    history.recordServed(opened);
    const text = edited(serializeNotebook(opened), (d) => d.content.content.push({ type: 'paragraph', content: [{ type: 'text', text: 'added' }] }));
    const first = patchOf(history.planSave(text));
    const saved = await client.notebooks.update(projectId, shortId, first.body);
    assert.equal(saved.version, opened.version + 1);
    assert.ok(saved.text_content?.endsWith('added'));
    history.recordServed(saved);
    const base = { version: saved.version, editable: editableOf(saved), displayed: first.displayed };
    const second = patchOf(history.planSave(edited(text, (d) => (d.title = 'Second save')), base));
    const again = await client.notebooks.update(projectId, shortId, second.body);
    assert.equal(again.version, opened.version + 2);
    assert.equal(again.title, 'Second save');
  });

  test('a remote edit between open and save makes the PATCH conflict, and nothing is overwritten', async () => {
    const history = new ServedJsonVersions(shortId);
    const opened = await client.notebooks.get(projectId, shortId);
    history.recordServed(opened);
    api.store.editNotebookRemotely(projectId, shortId, { content: { type: 'doc', content: [] } });
    const plan = patchOf(history.planSave(edited(serializeNotebook(opened), (d) => (d.title = 'Mine'))));
    await assert.rejects(client.notebooks.update(projectId, shortId, plan.body), ConflictError);
    const server = await client.notebooks.get(projectId, shortId);
    assert.notEqual(server.title, 'Mine');
    assert.deepEqual(server.content, { type: 'doc', content: [] });
  });
});
