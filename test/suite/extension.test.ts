import assert from 'node:assert/strict';
import { before, describe, it } from 'mocha';
import * as vscode from 'vscode';

const EXTENSION_ID = 'posthog-explorer.posthog-explorer';

interface Manifest {
  engines: { vscode: string };
  contributes?: {
    commands?: { command: string }[];
    views?: Record<string, { id: string }[]>;
  };
}

function versionParts(version: string): number[] {
  return (version.match(/\d+\.\d+\.\d+/)?.[0] ?? '0.0.0').split('.').map(Number);
}

function isAtLeast(version: string, minimum: string): boolean {
  const [a, b] = [versionParts(version), versionParts(minimum)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

describe('Extension', () => {
  let extension: vscode.Extension<unknown>;
  let manifest: Manifest;

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is installed`);
    extension = found;
    manifest = extension.packageJSON as Manifest;
    await extension.activate();
  });

  it(`activates in this VS Code (${vscode.version})`, () => {
    assert.equal(extension.isActive, true);
    assert.ok(
      isAtLeast(vscode.version, manifest.engines.vscode),
      `VS Code ${vscode.version} satisfies engines.vscode ${manifest.engines.vscode}`,
    );
  });

  describe('commands', () => {
    let contributed: string[];
    let registered: string[];

    before(async () => {
      contributed = (manifest.contributes?.commands ?? []).map((entry) => entry.command).sort();
      // VS Code registers commands of its own for each contributed view (`<viewId>.focus`, ...): not ours.
      const viewIds = Object.values(manifest.contributes?.views ?? {}).flat().map((view) => view.id);
      registered = (await vscode.commands.getCommands(true))
        .filter((id) => id.startsWith('posthogExplorer.'))
        .filter((id) => !viewIds.some((viewId) => id.startsWith(`${viewId}.`)))
        .sort();
    });

    it('contributes at least one command', () => {
      assert.ok(contributed.length > 0);
    });

    it('registers every command contributed in package.json', () => {
      const missing = contributed.filter((id) => !registered.includes(id));
      assert.deepEqual(missing, [], 'contributed in package.json but not registered in code');
    });

    it('contributes every posthogExplorer.* command it registers', () => {
      const undeclared = registered.filter((id) => !contributed.includes(id));
      assert.deepEqual(undeclared, [], 'registered in code but not contributed in package.json');
    });

    it('runs posthogExplorer.showLogs', async () => {
      await vscode.commands.executeCommand('posthogExplorer.showLogs');
    });
  });
});
