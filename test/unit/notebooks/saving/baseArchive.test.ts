import assert from 'node:assert/strict';
import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { BaseArchive } from '../../../../src/notebooks/saving/baseArchive';
import { snapshotOf } from '../../../../src/notebooks/saving/markdownSavePlan';
import { notebook } from '../fixtures';

describe('the archive of unsaved editors\' bases', () => {
  test('keeps a base per editor URI across instances (a window reload), and forgets it when asked', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'bases-'));
    const base = snapshotOf(notebook(), '# Weekly review\n', 1234);
    await new BaseArchive(directory).save('posthog://c/1/notebooks/a.md', base);
    const reloaded = new BaseArchive(directory);
    assert.deepEqual(await reloaded.load('posthog://c/1/notebooks/a.md'), base);
    assert.equal(await reloaded.load('posthog://c/1/notebooks/b.md'), undefined);
    await reloaded.remove('posthog://c/1/notebooks/a.md');
    assert.equal(await reloaded.load('posthog://c/1/notebooks/a.md'), undefined);
  });

  test('a damaged or foreign file is no base, and bases older than 30 days are pruned', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'bases-'));
    const archive = new BaseArchive(directory);
    await archive.save('key', snapshotOf(notebook(), 'x', 1));
    const [file] = await readdir(directory);
    await writeFile(path.join(directory, file!), '{"key":"key","base":{"version":"3"}}');
    assert.equal(await archive.load('key'), undefined);
    await writeFile(path.join(directory, file!), 'not json');
    assert.equal(await archive.load('key'), undefined);
    const old = new Date(Date.now() - 31 * 24 * 60 * 60_000);
    await utimes(path.join(directory, file!), old, old);
    await archive.prune();
    assert.deepEqual(await readdir(directory), []);
  });
});
