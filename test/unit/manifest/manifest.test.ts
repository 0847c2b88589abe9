import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { COMMANDS } from '../../../src/workbench/commandIds';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

interface Command {
  command: string;
  title: string;
  category?: string;
  icon?: string;
}

const commands: Command[] = manifest.contributes.commands;
const settings: Record<string, unknown> = Object.assign(
  {},
  ...[manifest.contributes.configuration ?? []].flat().map((section: { properties?: object }) => section.properties ?? {}),
);

/** Every "%key%" placeholder anywhere in the manifest. */
function placeholders(value: unknown): string[] {
  if (typeof value === 'string') {
    return [...value.matchAll(/^%([^%]+)%$/g)].map((match) => match[1]);
  }
  if (Array.isArray(value)) {
    return value.flatMap(placeholders);
  }
  if (value && typeof value === 'object') {
    return Object.values(value).flatMap(placeholders);
  }
  return [];
}

describe('manifest', () => {
  test('every command is posthogExplorer.*, in the PostHog category, with a localised title', () => {
    for (const command of commands) {
      assert.match(command.command, /^posthogExplorer\.[a-zA-Z]+$/, command.command);
      assert.equal(command.category, 'PostHog', command.command);
      assert.match(command.title, /^%command\.[a-zA-Z]+%$/, command.command);
    }
  });

  test('every %placeholder% has a string in package.nls.json, and no string is unused', () => {
    const used = new Set(placeholders(manifest.contributes));
    for (const key of used) {
      assert.ok(nls[key], `package.nls.json lacks "${key}"`);
    }
    for (const key of Object.keys(nls)) {
      assert.ok(used.has(key), `package.nls.json has unused "${key}"`);
    }
  });

  test('every setting is under the posthogExplorer. prefix and has a description', () => {
    for (const [key, value] of Object.entries(settings)) {
      assert.match(key, /^posthogExplorer\./, key);
      const setting = value as { description?: string; markdownDescription?: string };
      assert.ok(setting.description ?? setting.markdownDescription, `${key} has no description`);
    }
  });

  test('the code declares its command ids in one place (COMMANDS), exactly those package.json contributes', () => {
    const declared = Object.values(COMMANDS).sort();
    const contributed = commands.map((command) => command.command).sort();
    assert.deepEqual(declared, contributed);
    for (const [name, id] of Object.entries(COMMANDS)) {
      assert.equal(id, `posthogExplorer.${name}`, 'a command is named as its id without the prefix');
    }
  });

  test('menus name only contributed commands', () => {
    const ids = new Set(commands.map((command) => command.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus ?? {})) {
      for (const entry of entries as { command?: string }[]) {
        if (entry.command?.startsWith('posthogExplorer.')) {
          assert.ok(ids.has(entry.command), `${menu} names ${entry.command}, which is not contributed`);
        }
      }
    }
  });

  test('the README documents every command and every setting', () => {
    for (const command of commands) {
      const title = nls[command.title.slice(1, -1)];
      assert.ok(readme.includes(`PostHog: ${title}`), `README lacks "PostHog: ${title}" (${command.command})`);
    }
    for (const key of Object.keys(settings)) {
      assert.ok(readme.includes(key), `README lacks the setting ${key}`);
    }
  });

  test('VS Code starts without loading the extension: it activates on first use only', () => {
    const events: string[] = manifest.activationEvents;
    for (const eager of ['*', 'onStartupFinished']) {
      assert.ok(!events.includes(eager), `activationEvents has "${eager}"`);
    }
    assert.deepEqual(events.filter((event) => !/^on(View|WebviewPanel|FileSystem|Command|Language):/.test(event)), []);
  });

  test('runtime dependencies are only node-diff3, uplot, undici and zod (markdown-it is VS Code\'s own, for the preview)', () => {
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['node-diff3', 'undici', 'uplot', 'zod']);
  });
});
