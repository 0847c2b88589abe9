import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PostHogClient } from '../../../src/api';
import { ExplorerModel } from '../../../src/catalog/explorerModel';
import { MEMBERSHIP_LEVEL, mayCreateProjects, mayDeleteProjects } from '../../../src/catalog/permissions';
import { type LocalApi, startLocalApi } from '../../api-server';

describe('what the membership level allows', () => {
  test('creating projects: admins and owners; members where the organization lets them; unknown when not said', () => {
    const { member, admin, owner } = MEMBERSHIP_LEVEL;
    assert.deepEqual([member, admin, owner], [1, 8, 15], "PostHog's OrganizationMembership.Level");
    assert.equal(mayCreateProjects({ membershipLevel: owner }), true);
    assert.equal(mayCreateProjects({ membershipLevel: admin, membersCanCreateProjects: false }), true);
    assert.equal(mayCreateProjects({ membershipLevel: member, membersCanCreateProjects: false }), false);
    assert.equal(mayCreateProjects({ membershipLevel: member, membersCanCreateProjects: true }), true);
    assert.equal(mayCreateProjects({ membershipLevel: member }), undefined, 'the setting was not read (profile only)');
    assert.equal(mayCreateProjects({}), undefined, 'an organization added by id');
  });

  test('deleting projects: admin rights; unknown when the level is not said', () => {
    assert.equal(mayDeleteProjects(15), true);
    assert.equal(mayDeleteProjects(8), true);
    assert.equal(mayDeleteProjects(1), false);
    assert.equal(mayDeleteProjects(null), undefined);
    assert.equal(mayDeleteProjects(undefined), undefined);
  });
});

describe('ExplorerModel: membership levels from PostHog', () => {
  let api: LocalApi;
  const clients: PostHogClient[] = [];
  const model = (apiKey: string) => {
    const client = new PostHogClient({ baseUrl: api.url, apiKey });
    clients.push(client);
    return new ExplorerModel(client, () => []);
  };

  before(async () => {
    api = await startLocalApi();
    const [hedgebox, acme] = api.store.organizations;
    acme!.members.find((membership) => membership.userId === api.store.mainUser.id)!.level = 1;
    hedgebox!.membersCanCreateProjects = true;
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await api.close();
  });

  test("the organizations list gives the user's level and whether members may create projects", async () => {
    const organizations = await model(api.keys.all).organizations();
    assert.deepEqual(
      organizations.map(({ name, membershipLevel, membersCanCreateProjects }) => ({ name, membershipLevel, membersCanCreateProjects })),
      [
        { name: 'Hedgebox Inc.', membershipLevel: 15, membersCanCreateProjects: true },
        { name: 'Acme Analytics', membershipLevel: 1, membersCanCreateProjects: false },
      ],
    );
    assert.deepEqual(organizations.map(mayCreateProjects), [true, false]);
  });

  test("the user's profile gives the level only", async () => {
    const organizations = await model(api.createKey({ scopes: ['user:read', 'project:read'] })).organizations();
    assert.deepEqual(
      organizations.map(({ membershipLevel, membersCanCreateProjects }) => [membershipLevel, membersCanCreateProjects]),
      [[15, undefined], [1, undefined]],
    );
    assert.deepEqual(organizations.map(mayCreateProjects), [true, undefined], 'a member there: PostHog decides');
  });
});
