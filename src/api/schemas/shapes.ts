import { ActivityPageSchema } from './activity';
import { DemoDataStatusSchema } from './project';

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Activity endpoints: PostHog sends an activity page; the spec calls it the resource's own shape. */
export function activityOr<T>(resourceSchema: T) {
  return (body: unknown): typeof ActivityPageSchema | T =>
    isObject(body) && Array.isArray(body.results) ? ActivityPageSchema : resourceSchema;
}

/** is_generating_demo_data: PostHog sends {is_generating_demo_data}; the spec calls it a full project. */
export function demoDataStatusOr<T>(projectSchema: T) {
  return (body: unknown): typeof DemoDataStatusSchema | T =>
    isObject(body) && 'is_generating_demo_data' in body && !('api_token' in body) ? DemoDataStatusSchema : projectSchema;
}

/** Narrows an activity answer to the activity page PostHog really sends. */
export function isActivityPage(value: unknown): value is import('./activity').ActivityPage {
  return isObject(value) && Array.isArray(value.results);
}
