import { registerConnections } from './connections';
import { registerDocuments } from './documents';
import { registerEvents } from './events';
import { registerHogQL } from './hogql';
import { registerNotebooks } from './notebooks';
import { registerProjects } from './projects';
import type { Services } from './services';
import { registerExplorer } from './tree';

/**
 * Every feature's entry point, in the order they register: the order of a project's items in the explorer.
 * The extension (extension.ts) and the in-editor harness (test/suite/support/explorerHarness.ts) both build
 * the extension from this list.
 */
const FEATURES = {
  connections: registerConnections,
  explorer: registerExplorer,
  documents: registerDocuments,
  notebooks: registerNotebooks,
  events: registerEvents,
  projects: registerProjects,
  hogql: registerHogQL,
};

export type Features = { readonly [Name in keyof typeof FEATURES]: ReturnType<(typeof FEATURES)[Name]> };

/** Registers every feature with the shared services; each returned feature is a disposable. */
export function registerFeatures(services: Services): Features {
  return Object.fromEntries(Object.entries(FEATURES).map(([name, register]) => [name, register(services)])) as Features;
}
