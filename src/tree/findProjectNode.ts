import type { ExplorerTreeProvider } from './explorerTreeProvider';
import { ConnectionNode, OrganizationNode, ProjectNode } from './nodes';

/** Finds a project's node by walking connection → organization → project (only along that path). */
export async function findProjectNode(
  tree: Pick<ExplorerTreeProvider, 'getChildren'>,
  connectionId: string,
  organizationId: string,
  projectId: number,
): Promise<ProjectNode | undefined> {
  let nodes = await tree.getChildren();
  const connection = nodes.find((node) => node instanceof ConnectionNode && node.connection().id === connectionId);
  if (connection) {
    nodes = await tree.getChildren(connection);
  }
  const organization = nodes.find(
    (node): node is OrganizationNode =>
      node instanceof OrganizationNode && node.session.connection.id === connectionId && node.organization.id === organizationId,
  );
  if (!organization) {
    return undefined;
  }
  const projects = await tree.getChildren(organization);
  return projects.find((node): node is ProjectNode => node instanceof ProjectNode && node.project.id === projectId);
}
