import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActivityPageSchema,
  EventSchema,
  EventsPageSchema,
  MeSchema,
  NOTEBOOK_WRITABLE_FIELDS,
  NotebookListItemSchema,
  NotebookSchema,
  OrganizationSchema,
  paginated,
  PROJECT_WRITABLE_FIELDS,
  ProjectListItemSchema,
  ProjectSchema,
  ResponseShapeError,
} from '../../../src/api';
import { parseShape } from '../../../src/api/validate';
import * as fixtures from './fixtures';

const endpoint = 'GET /api/projects/1/notebooks/';

function shapeError(run: () => unknown): ResponseShapeError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ResponseShapeError, `expected ResponseShapeError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ResponseShapeError');
}

describe('schemas accept what PostHog sends', () => {
  test('full project, with nulls and unknown extra fields', () => {
    const project = parseShape(ProjectSchema, fixtures.project, endpoint);
    assert.equal(project.name, 'Web');
    assert.ok(!('slack_incoming_webhook' in project), 'a field PostHog dropped is not kept');
    assert.deepEqual(project.app_urls, ['https://example.com', null]);
  });

  test('project list item and paginated envelope', () => {
    const list = parseShape(paginated(ProjectListItemSchema), fixtures.page([fixtures.projectListItem]), endpoint);
    assert.equal(list.results[0].api_token, 'phc_abc');
    assert.equal(list.next, null);
  });

  test('notebook and notebook list item, created_by may be null', () => {
    const item = parseShape(NotebookListItemSchema, fixtures.notebookListItem(2), endpoint);
    assert.equal(item.created_by, null);
    const notebook = parseShape(NotebookSchema, fixtures.notebook, endpoint);
    assert.equal(notebook.version, 3);
    assert.deepEqual(notebook.content, fixtures.notebook.content);
  });

  test('notebook without a title (PostHog allows null)', () => {
    assert.equal(parseShape(NotebookListItemSchema, { ...fixtures.notebookListItem(1), title: null }, endpoint).title, null);
  });

  test('events with string fields (spec) and JSON fields (real server)', () => {
    assert.equal(parseShape(EventSchema, fixtures.eventAsStrings, endpoint).properties, '{"$browser": "Firefox"}');
    const event = parseShape(EventSchema, fixtures.eventAsJson, endpoint);
    assert.deepEqual(event.properties, { $browser: 'Firefox' });
    assert.ok(Array.isArray(event.elements));
  });

  test('events envelope with and without next', () => {
    assert.equal(parseShape(EventsPageSchema, { results: [fixtures.eventAsJson] }, endpoint).next, undefined);
    assert.equal(parseShape(EventsPageSchema, { next: 'http://h/x', results: [] }, endpoint).next, 'http://h/x');
  });

  test('activity page with a system user', () => {
    const activity = parseShape(ActivityPageSchema, fixtures.activityPage, endpoint);
    assert.equal(activity.results[1].user?.is_system, true);
    assert.equal(activity.total_count, 2);
  });

  test('users/@me and organizations', () => {
    assert.equal(parseShape(MeSchema, fixtures.me, endpoint).organizations?.[0].slug, 'acme');
    assert.equal(parseShape(MeSchema, { ...fixtures.me, team: null, organization: null }, endpoint).team, null);
    assert.equal(parseShape(OrganizationSchema, fixtures.organization, endpoint).projects?.[0].name, 'Web');
  });
});

describe('schemas refuse what does not fit, naming the field', () => {
  test('a wrong type deep in a list', () => {
    const results = [1, 2, 3, 4].map(fixtures.notebookListItem);
    (results[3] as { title: unknown }).title = 42;
    const error = shapeError(() => parseShape(paginated(NotebookListItemSchema), fixtures.page(results), endpoint));
    assert.equal(error.message, 'GET /api/projects/1/notebooks/: results.3.title: expected string, received number');
    assert.equal(error.path, 'results.3.title');
    assert.equal(error.endpoint, endpoint);
    assert.match(error.userMessage, /results\.3\.title/);
  });

  test('a missing required field', () => {
    const { api_token: _, ...withoutToken } = fixtures.project;
    const error = shapeError(() => parseShape(ProjectSchema, withoutToken, 'GET /api/organizations/o/projects/1/'));
    assert.match(error.message, /api_token: expected string, received nothing/);
  });

  test('a whole body of the wrong kind', () => {
    const error = shapeError(() => parseShape(paginated(NotebookListItemSchema), [], endpoint));
    assert.equal(error.path, '');
    assert.match(error.message, /expected object, received array/);
  });

  test('a union field names the field and the closest branch', () => {
    const error = shapeError(() => parseShape(EventSchema, { ...fixtures.eventAsJson, properties: 7 }, endpoint));
    assert.equal(error.path, 'properties');
    const nested = shapeError(() => parseShape(EventsPageSchema, { results: [{ ...fixtures.eventAsJson, elements: 7 }] }, endpoint));
    assert.equal(nested.path, 'results.0.elements');
  });

  test('an integer field given a fraction', () => {
    const error = shapeError(() => parseShape(NotebookSchema, { ...fixtures.notebook, version: 1.5 }, endpoint));
    assert.equal(error.path, 'version');
    assert.equal(error.message, `${endpoint}: version: expected int, received number`);
  });

  test('a value outside its range says what was expected, in English', () => {
    const error = shapeError(() => parseShape(paginated(NotebookListItemSchema), { ...fixtures.page([]), count: -1 }, endpoint));
    assert.equal(error.message, `${endpoint}: count: Too small: expected number to be >=0`);
  });

  test('next given as a number', () => {
    const error = shapeError(() => parseShape(paginated(NotebookListItemSchema), { ...fixtures.page([]), next: 5 }, endpoint));
    assert.equal(error.path, 'next');
  });
});

describe('writable field lists', () => {
  test('notebook fields as in spec 2.2', () => {
    assert.deepEqual([...NOTEBOOK_WRITABLE_FIELDS].sort(), ['content', 'deleted', 'text_content', 'title', 'version']);
  });

  test('project fields are the 34 writable fields of spec 2.1 PostHog still has (no slack_incoming_webhook), all known to the project schema', () => {
    assert.equal(PROJECT_WRITABLE_FIELDS.length, 34);
    assert.equal(new Set(PROJECT_WRITABLE_FIELDS).size, 34);
    assert.ok(!(PROJECT_WRITABLE_FIELDS as readonly string[]).includes('slack_incoming_webhook'));
    const known = Object.keys(ProjectSchema.shape);
    for (const field of PROJECT_WRITABLE_FIELDS) {
      assert.ok(known.includes(field), field);
    }
    for (const readOnly of ['id', 'uuid', 'organization', 'api_token', 'created_at', 'updated_at', 'ingested_event', 'effective_membership_level', 'has_group_types', 'person_on_events_querying_enabled', 'default_modifiers', 'live_events_token']) {
      assert.ok(!(PROJECT_WRITABLE_FIELDS as readonly string[]).includes(readOnly), readOnly);
    }
  });
});
