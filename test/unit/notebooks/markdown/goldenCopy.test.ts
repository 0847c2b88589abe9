import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { GOLDEN_FILES, dialectDataFolder, publishedDialectFolder } from './goldenCases';

/**
 * The golden cases are copied into the repository; when the published set lies beside the clone, the copy
 * must be the same, so that an update there is noticed here rather than tested against stale cases.
 */
const published = publishedDialectFolder();

test('the golden cases inside the repository match the published ones beside the clone', { skip: !existsSync(published) && 'no published cases beside this clone' }, () => {
  for (const file of [...GOLDEN_FILES, 'README.md']) {
    const inside = readFileSync(resolve(dialectDataFolder(), file));
    const outside = readFileSync(resolve(published, file));
    assert.ok(inside.equals(outside), `test/fixtures/posthog-dialect/${file} differs from ${resolve(published, file)}: copy the published file in`);
  }
});
