import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const root = path.resolve(__dirname, '../../../..');
const src = path.join(root, 'src');
/** Shared layers every folder may use; the README's list leaves them out. */
const LAYERS = new Set(['api', 'common', 'workbench']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
  );
}

/** folder → the other folders of src/ its modules import (type-only imports included). */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const relative = path.relative(src, file).split(path.sep);
    if (relative.length < 2) {
      continue;
    }
    const folder = relative[0]!;
    const targets = graph.get(folder) ?? new Set<string>();
    graph.set(folder, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path.relative(src, path.resolve(path.dirname(file), match[1]!)).split(path.sep)[0]!;
      if (target !== folder && !target.startsWith('..')) {
        targets.add(target);
      }
    }
  }
  return graph;
}

/** The README's "Imports between folders" list: lines like "- `notebooks` → `tree`, `documents`". */
function documentedImports(): Map<string, Set<string>> {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Imports between folders'));
  const graph = new Map<string, Set<string>>();
  for (const match of section.matchAll(/^- `(\w+)` → (.*)$/gm)) {
    const targets = [...match[2]!.matchAll(/`(\w+)`/g)].map((target) => target[1]!);
    graph.set(match[1]!, new Set(targets));
  }
  return graph;
}

function withoutLayers(graph: Map<string, Set<string>>): Map<string, string[]> {
  return new Map(
    [...graph]
      .filter(([folder]) => !LAYERS.has(folder))
      .map(([folder, targets]) => [folder, [...targets].filter((target) => !LAYERS.has(target)).sort()] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe('imports between the folders of src/', () => {
  test('form no cycle', () => {
    const graph = folderImports();
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (folder: string, trail: string[]): void => {
      if (done.has(folder)) {
        return;
      }
      assert.ok(!visiting.has(folder), `import cycle: ${[...trail, folder].join(' → ')}`);
      visiting.add(folder);
      for (const target of graph.get(folder) ?? []) {
        visit(target, [...trail, folder]);
      }
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of graph.keys()) {
      visit(folder, []);
    }
  });

  test('the shared layers import no other folder: api, common and workbench nothing', () => {
    const graph = folderImports();
    assert.deepEqual([...(graph.get('api') ?? [])], []);
    assert.deepEqual([...(graph.get('common') ?? [])], []);
    assert.deepEqual([...(graph.get('workbench') ?? [])], []);
  });

  test('are the ones the README lists under "Imports between folders"', () => {
    assert.deepEqual(withoutLayers(documentedImports()), withoutLayers(folderImports()));
  });
});
