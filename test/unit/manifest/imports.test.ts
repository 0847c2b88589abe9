import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';

const root = path.resolve(__dirname, '../../../..');
const src = path.join(root, 'src');
/** Shared layers every folder may use; CONTRIBUTING.md's list leaves them out. */
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

/** CONTRIBUTING.md's "Imports between folders" list: lines like "- `notebooks` → `tree`, `documents`". */
function documentedImports(): Map<string, Set<string>> {
  const guide = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
  const start = guide.indexOf('### Imports between folders');
  assert.ok(start >= 0, 'CONTRIBUTING.md has a section "Imports between folders"');
  const section = guide.slice(start, guide.indexOf('\n#', start + 1));
  const graph = new Map<string, Set<string>>();
  for (const match of section.matchAll(/^- `(\w+)` → (.*)$/gm)) {
    const targets = [...match[2]!.matchAll(/`(\w+)`/g)].map((target) => target[1]!);
    graph.set(match[1]!, new Set(targets));
  }
  return graph;
}

/** The ALLOWED table of eslint.config.mjs: the folders each folder of src/ may import besides the layers. */
async function lintTable(): Promise<Map<string, Set<string>>> {
  // eslint.config.mjs is an ES module; TypeScript would turn a plain import() into require().
  const load = new Function('url', 'return import(url)') as (url: string) => Promise<{ ALLOWED: Record<string, string[]>; NOTEBOOK_PARTS: Record<string, string[]> }>;
  const { ALLOWED } = await load(pathToFileURL(path.join(root, 'eslint.config.mjs')).href);
  return new Map(Object.entries(ALLOWED).map(([folder, targets]) => [folder, new Set(targets)]));
}

/** Every folder of src/ (files at its top, such as extension.ts, belong to none). */
function srcFolders(): string[] {
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
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

  test('are the ones CONTRIBUTING.md lists under "Imports between folders"', () => {
    assert.deepEqual(withoutLayers(documentedImports()), withoutLayers(folderImports()));
  });

  test('the lint table (ALLOWED in eslint.config.mjs) names every folder of src/, has no cycle, and is the documented list', async () => {
    const table = await lintTable();
    assert.deepEqual([...table.keys()].sort(), srcFolders());
    for (const layer of LAYERS) {
      assert.deepEqual([...(table.get(layer) ?? [])], [], `${layer} imports no other folder`);
    }
    const visit = (folder: string, trail: string[]): void => {
      assert.ok(!trail.includes(folder), `cycle in ALLOWED: ${[...trail, folder].join(' → ')}`);
      for (const target of table.get(folder) ?? []) {
        assert.ok(table.has(target), `ALLOWED lets ${folder} import ${target}, which is not a folder of src/`);
        visit(target, [...trail, folder]);
      }
    };
    for (const folder of table.keys()) {
      visit(folder, []);
    }
    assert.deepEqual(withoutLayers(table), withoutLayers(documentedImports()));
  });

  test('the code imports only what the lint table allows', async () => {
    const table = await lintTable();
    for (const [folder, targets] of withoutLayers(folderImports())) {
      const allowed = table.get(folder) ?? new Set<string>();
      assert.deepEqual(targets.filter((target) => !allowed.has(target)), [], `src/${folder} imports beyond ALLOWED`);
    }
  });
});

/** eslint.config.mjs's NOTEBOOK_PARTS: the sub-features of src/notebooks and the ones each may import. */
async function notebookParts(): Promise<Map<string, string[]>> {
  const load = new Function('url', 'return import(url)') as (url: string) => Promise<{ NOTEBOOK_PARTS: Record<string, string[]> }>;
  const { NOTEBOOK_PARTS } = await load(pathToFileURL(path.join(root, 'eslint.config.mjs')).href);
  return new Map(Object.entries(NOTEBOOK_PARTS));
}

describe('the sub-features of src/notebooks', () => {
  const notebooks = path.join(src, 'notebooks');

  test('are each in NOTEBOOK_PARTS, which lets each import only parts listed before it (no cycle)', async () => {
    const parts = await notebookParts();
    const folders = readdirSync(notebooks, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    assert.deepEqual([...parts.keys()].sort(), folders.sort());
    const order = [...parts.keys()];
    for (const [part, allowed] of parts) {
      for (const target of allowed) {
        assert.ok(order.indexOf(target) >= 0 && order.indexOf(target) < order.indexOf(part), `${part} may import ${target}, which is not below it`);
      }
    }
  });

  test('import nothing from the feature\'s root, whose files are only its wiring (20 at most)', () => {
    const rootFiles = readdirSync(notebooks).filter((name) => name.endsWith('.ts')).map((name) => name.replace(/\.ts$/, ''));
    assert.ok(rootFiles.length <= 20, `${rootFiles.length} files in src/notebooks: ${rootFiles.join(', ')}`);
    for (const file of sourceFiles(notebooks).filter((file) => path.dirname(file) !== notebooks)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = path.resolve(path.dirname(file), match[1]!);
        assert.ok(!(path.dirname(target) === notebooks && rootFiles.includes(path.basename(target))), `${path.relative(root, file)} imports ${match[1]}, the feature's root`);
      }
    }
  });
});
