import { registerConnections } from './connections';
import { registerDocuments } from './documents';
import { registerEvents } from './events';
import { type HogQLFeature, registerHogQL } from './hogql';
import { registerNotebooks } from './notebooks';
import { registerProjects } from './projects';
import { registerQueries } from './queries';
import { registerResults, type ResultsFeature } from './results';
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
  results: registerResults,
  queries: (services: Services, earlier: { readonly results?: ResultsFeature; readonly hogql?: HogQLFeature }) => {
    const queries = registerQueries(services, earlier.results!.panels, earlier.hogql!.targets);
    // The SQL cells HogQL checks and completes are the cards the lenses run, read once per edit.
    earlier.hogql!.sqlCells.use(queries.documents);
    return queries;
  },
};

export type Features = { readonly [Name in keyof typeof FEATURES]: ReturnType<(typeof FEATURES)[Name]> };

/**
 * Registers every feature with the shared services, in order; a feature may also use one registered before it
 * (the queries show their runs in the results' panels). Each returned feature is a disposable.
 */
export function registerFeatures(services: Services): Features {
  const registered: Record<string, unknown> = {};
  for (const [name, register] of Object.entries(FEATURES)) {
    registered[name] = (register as (services: Services, earlier: Record<string, unknown>) => unknown)(services, registered);
  }
  return registered as Features;
}
