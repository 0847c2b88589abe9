// Rebuilds a generated event's full record from its four stored numbers. Deterministic: the same
// row always yields the same properties, elements and id.
import type { JsonObject } from './model';
import type { EventRecord, EventTable } from './events';
import { referringDomain } from './events';
import { BROWSERS, CLICK_TARGETS, COUNTRIES, EVENT_KINDS, PATHS, REFERRERS, SYSTEMS, PLANS, elementsChain } from './event-catalog';
import { Rng, mix, uuidFromParts } from './random';

const SESSION_MICROS = 30 * 60 * 1_000_000;
const FILE_TYPES = ['image/png', 'image/jpeg', 'application/pdf', 'video/mp4', 'text/plain', 'application/zip'];

/** Marks a property that cannot be read without building the whole event. */
export const SLOW = Symbol('slow');

/** The distinct id a generated event uses: mostly the person's identified id once they have one. */
export function generatedDistinctId(ids: readonly string[], gen: number): string {
  return ids.length > 1 && new Rng(gen).chance(0.85) ? ids[ids.length - 1]! : ids[0]!;
}

/** The first draws of a generated event: its distinct id, then its page path (generatedDistinctId, quickProperty). */
function drawIdAndPath(rng: Rng, ids: readonly string[]): { distinctId: string; path: string } {
  const distinctId = ids.length > 1 && rng.chance(0.85) ? ids[ids.length - 1]! : ids[0]!;
  const template = rng.pick(PATHS);
  return { distinctId, path: template.includes('{id}') ? template.replace('{id}', rng.hex(10)) : template };
}

/** Properties read without building the whole event (fast filters): the person's profile's, and the page's path. */
export function quickProperty(table: EventTable, personIndex: number, gen: number, key: string): JsonObject[string] | undefined | typeof SLOW {
  const profile = table.profiles[personIndex]!;
  switch (key) {
    case '$browser': return BROWSERS[profile.browser]!.name;
    case '$browser_version': { const versions = BROWSERS[profile.browser]!.versions; return versions[gen % versions.length]!; }
    case '$os': return SYSTEMS[profile.system]!.os;
    case '$os_version': return SYSTEMS[profile.system]!.version;
    case '$device_type': return SYSTEMS[profile.system]!.device;
    case '$screen_width': return SYSTEMS[profile.system]!.width;
    case '$screen_height': return SYSTEMS[profile.system]!.height;
    case '$geoip_country_code': return COUNTRIES[profile.country]!.code;
    case '$geoip_country_name': return COUNTRIES[profile.country]!.name;
    case '$geoip_city_name': return COUNTRIES[profile.country]!.city;
    case '$referrer': return REFERRERS[profile.referrer]!;
    case '$referring_domain': return referringDomain(REFERRERS[profile.referrer]!);
    case '$host': return table.site.host;
    case '$lib': return 'web';
    case 'token': return table.site.token;
    case '$is_identified': return table.persons[personIndex]!.is_identified;
    case '$pathname': return drawIdAndPath(new Rng(gen), table.persons[personIndex]!.distinct_ids).path;
    case '$current_url': return `https://${table.site.host}${drawIdAndPath(new Rng(gen), table.persons[personIndex]!.distinct_ids).path}`;
    default: return SLOW;
  }
}

/**
 * Which property keys a generated event has depends only on its kind and, for a click, on its target: rows of
 * one shape list the same keys, so the property definitions read one event of each shape (property-definitions.ts).
 */
export function generatedShape(kind: number, gen: number): number {
  return EVENT_KINDS[kind]!.name === '$autocapture' ? kind * CLICK_TARGETS.length + (gen % CLICK_TARGETS.length) : kind * CLICK_TARGETS.length;
}

/** A generated event's uuid (a UUIDv7 of its time), without building the event. */
export function generatedUuid(row: number, kind: number, personIndex: number, gen: number, ts: number): string {
  return uuidFromParts(ts / 1000, gen, mix(gen, row), mix(row, kind, personIndex));
}

export function generatedEvent(table: EventTable, row: number, kind: number, personIndex: number, gen: number, ts: number): EventRecord {
  const rng = new Rng(gen);
  const person = table.persons[personIndex]!;
  const profile = table.profiles[personIndex]!;
  const name = EVENT_KINDS[kind]!.name;
  const ids = person.distinct_ids;
  const { distinctId, path } = drawIdAndPath(rng, ids);
  const bucket = Math.floor(ts / SESSION_MICROS);
  const sessionId = uuidFromParts((bucket * SESSION_MICROS) / 1000, mix(personIndex, bucket), mix(bucket, personIndex, 1), mix(personIndex, 2, bucket));
  const browser = BROWSERS[profile.browser]!;
  const system = SYSTEMS[profile.system]!;
  const country = COUNTRIES[profile.country]!;
  const referrer = REFERRERS[profile.referrer]!;

  const properties: JsonObject = {
    $os: system.os,
    $os_version: system.version,
    $browser: browser.name,
    $browser_version: browser.versions[gen % browser.versions.length]!,
    $device_type: system.device,
    $current_url: `https://${table.site.host}${path}`,
    $host: table.site.host,
    $pathname: path,
    $screen_height: system.height,
    $screen_width: system.width,
    $viewport_height: system.height - 120,
    $viewport_width: system.width,
    $lib: 'web',
    $lib_version: '1.141.2',
    $insert_id: rng.base62(16).toLowerCase(),
    $time: Math.floor(ts / 1000) / 1000,
    distinct_id: distinctId,
    $device_id: ids[0]!,
    $session_id: sessionId,
    $window_id: uuidFromParts((bucket * SESSION_MICROS) / 1000, mix(bucket, 7), mix(personIndex, 7), mix(gen, 7)),
    $referrer: referrer,
    $referring_domain: referringDomain(referrer),
    $geoip_country_code: country.code,
    $geoip_country_name: country.name,
    $geoip_city_name: country.city,
    $is_identified: person.is_identified,
    token: table.site.token,
  };
  let elements: JsonObject[] = [];
  let chain = '';
  switch (name) {
    case '$autocapture': {
      const target = CLICK_TARGETS[gen % CLICK_TARGETS.length]!;
      properties['$event_type'] = 'click';
      properties['$ce_version'] = 1;
      if (target[0]!.text) properties['$el_text'] = target[0]!.text;
      elements = target.map((e, order) => ({ ...e, order }) as unknown as JsonObject);
      chain = elementsChain(target);
      break;
    }
    case '$pageleave':
      properties['$prev_pageview_pathname'] = path;
      properties['$prev_pageview_duration'] = rng.int(2, 600);
      break;
    case '$identify':
      properties['$anon_distinct_id'] = ids[0]!;
      properties['$set'] = { email: person.properties['email'] ?? null, name: person.properties['name'] ?? null };
      break;
    case 'signed_up':
      properties['plan'] = 'personal/free';
      properties['from_invite'] = rng.chance(0.2);
      break;
    case 'uploaded_file':
    case 'downloaded_file':
    case 'deleted_file':
    case 'shared_file_link':
      properties['file_type'] = rng.pick(FILE_TYPES);
      properties['file_size_b'] = rng.int(2_000, 80_000_000);
      break;
    case 'upgraded_plan':
      properties['previous_plan'] = PLANS[gen % 2]!;
      properties['new_plan'] = PLANS[2 + (gen % 2)]!;
      break;
    case 'paid_bill':
      properties['amount_usd'] = rng.pick([10, 20, 100, 500]);
      properties['plan'] = person.properties['plan'] ?? PLANS[1]!;
      break;
  }
  return {
    uuid: generatedUuid(row, kind, personIndex, gen, ts),
    event: name,
    distinct_id: distinctId,
    timestamp: ts,
    properties,
    elements,
    elements_chain: chain,
    person,
  };
}
