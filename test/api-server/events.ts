// Memory-lean event storage. Generated events are kept as four numbers per row (time, kind, person,
// random seed) and their properties are rebuilt on demand, so 100,000 events cost a few megabytes.
// Events added explicitly (store.addEvent) keep their own record.
import type { JsonObject, Person } from './model';
import { BROWSERS, COUNTRIES, REFERRERS, SYSTEMS, FIRST_NAMES, LAST_NAMES, PLANS, EVENT_KINDS, kindFor } from './event-catalog';
import { generatedDistinctId, generatedEvent, generatedShape, generatedUuid, quickProperty, SLOW } from './event-props';
import { Rng, uuidTimeMs, isUuid, normaliseUuid } from './random';
import { parseIsoMicros } from './time';

export interface EventRecord {
  uuid: string;
  event: string;
  distinct_id: string;
  /** microseconds since the epoch */
  timestamp: number;
  properties: JsonObject;
  elements: JsonObject[];
  elements_chain: string;
  person: Person | null;
}

export interface NewEvent {
  event: string;
  distinct_id?: string;
  properties?: JsonObject;
  timestamp?: Date | string | number;
  uuid?: string;
  elements_chain?: string;
  elements?: JsonObject[];
}

export interface PersonProfile {
  browser: number;
  system: number;
  country: number;
  referrer: number;
}

export interface Site {
  host: string;
  token: string;
}

const EXPLICIT = 255;

export class EventTable {
  readonly persons: Person[] = [];
  readonly profiles: PersonProfile[] = [];
  private readonly personByDistinctId = new Map<string, number>();
  private ts = new Float64Array(1024);
  private kind = new Uint8Array(1024);
  private person = new Int32Array(1024);
  private gen = new Uint32Array(1024);
  private count = 0;
  private readonly explicit = new Map<number, EventRecord>();
  private sortedRows: Uint32Array | null = null;

  constructor(readonly site: Site, private readonly nextPersonId: () => number) {}

  get size(): number {
    return this.count;
  }

  addPersons(n: number, rng: Rng, createdBeforeMicros: number): void {
    for (let i = 0; i < n; i++) {
      const created = createdBeforeMicros - rng.int(1, 60 * 24 * 3600) * 1_000_000;
      const identified = rng.chance(0.7);
      const anonymousId = rng.uuid(created / 1000);
      const profile: PersonProfile = {
        browser: rng.int(0, BROWSERS.length - 1),
        system: rng.int(0, SYSTEMS.length - 1),
        country: rng.int(0, COUNTRIES.length - 1),
        referrer: rng.int(0, REFERRERS.length - 1),
      };
      const browser = BROWSERS[profile.browser]!;
      const system = SYSTEMS[profile.system]!;
      const properties: JsonObject = {
        $initial_browser: browser.name,
        $initial_os: system.os,
        $initial_device_type: system.device,
        $initial_geoip_country_code: COUNTRIES[profile.country]!.code,
        $initial_referring_domain: referringDomain(REFERRERS[profile.referrer]!),
      };
      const distinctIds = [anonymousId];
      if (identified) {
        const first = rng.pick(FIRST_NAMES);
        const last = rng.pick(LAST_NAMES);
        const email = `${first}.${last}${rng.int(1, 99)}@${rng.pick(['gmail.com', 'outlook.com', 'proton.me', 'fastmail.com'])}`.toLowerCase();
        Object.assign(properties, { email, name: `${first} ${last}`, plan: rng.pick(PLANS) });
        distinctIds.push(email);
      }
      this.insertPerson({ id: this.nextPersonId(), uuid: rng.uuid(created / 1000), distinct_ids: distinctIds, properties, is_identified: identified, created_at: created }, profile);
    }
  }

  private insertPerson(person: Person, profile: PersonProfile): number {
    const index = this.persons.length;
    this.persons.push(person);
    this.profiles.push(profile);
    for (const id of person.distinct_ids) this.personByDistinctId.set(id, index);
    return index;
  }

  personIndexOf(distinctId: string): number | undefined {
    return this.personByDistinctId.get(distinctId);
  }

  findPerson(idOrUuid: string): Person | undefined {
    const wanted = isUuid(idOrUuid) ? normaliseUuid(idOrUuid) : idOrUuid;
    return this.persons.find((p) => String(p.id) === wanted || p.uuid === wanted);
  }

  /** Adds n generated events with times in (fromMicros, toMicros], more of them recent. */
  generate(n: number, rng: Rng, fromMicros: number, toMicros: number): void {
    if (this.persons.length === 0) this.addPersons(Math.max(10, Math.ceil(n / 40)), rng, fromMicros);
    const taken = this.count > 0 ? new Set<number>(this.ts.subarray(0, this.count)) : new Set<number>();
    const span = Math.max(1, toMicros - fromMicros);
    this.reserve(n);
    for (let i = 0; i < n; i++) {
      let t = toMicros - Math.floor(span * Math.pow(rng.next(), 1.35));
      while (taken.has(t)) t -= 1;
      taken.add(t);
      const row = this.count++;
      this.ts[row] = t;
      this.kind[row] = kindFor(rng.uint32());
      this.person[row] = Math.floor(this.persons.length * Math.pow(rng.next(), 1.8));
      this.gen[row] = rng.uint32();
    }
    this.sortedRows = null;
  }

  /** Adds one generated event at each of these times (microseconds); times may repeat. */
  generateAt(times: readonly number[], rng: Rng): void {
    if (this.persons.length === 0) this.addPersons(Math.max(10, Math.ceil(times.length / 40)), rng, times.reduce((oldest, t) => Math.min(oldest, t), Infinity));
    this.reserve(times.length);
    for (const t of times) {
      const row = this.count++;
      this.ts[row] = t;
      this.kind[row] = kindFor(rng.uint32());
      this.person[row] = Math.floor(this.persons.length * Math.pow(rng.next(), 1.8));
      this.gen[row] = rng.uint32();
    }
    this.sortedRows = null;
  }

  addExplicit(input: NewEvent, nowMicros: number, rng: Rng): EventRecord {
    const timestamp = toMicros(input.timestamp, nowMicros);
    const distinctId = input.distinct_id ?? rng.uuid(timestamp / 1000);
    const personIndex = this.personByDistinctId.get(distinctId);
    const record: EventRecord = {
      uuid: input.uuid ?? rng.uuid(timestamp / 1000),
      event: input.event,
      distinct_id: distinctId,
      timestamp,
      properties: { ...(input.properties ?? {}) },
      elements: input.elements ?? [],
      elements_chain: input.elements_chain ?? '',
      person: personIndex === undefined ? null : this.persons[personIndex]!,
    };
    this.reserve(1);
    const row = this.count++;
    this.ts[row] = timestamp;
    this.kind[row] = EXPLICIT;
    this.person[row] = personIndex ?? -1;
    this.gen[row] = 0;
    this.explicit.set(row, record);
    this.sortedRows = null;
    return record;
  }

  /** Row numbers, newest first. */
  sorted(): Uint32Array {
    if (!this.sortedRows) {
      const rows = new Uint32Array(this.count);
      for (let i = 0; i < this.count; i++) rows[i] = i;
      const ts = this.ts;
      rows.sort((a, b) => ts[b]! - ts[a]! || b - a);
      this.sortedRows = rows;
    }
    return this.sortedRows;
  }

  /** Index in sorted() of the first row older than `beforeMicros` (rows.length when there is none). */
  firstRowBefore(beforeMicros: number): number {
    const rows = this.sorted();
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.ts[rows[mid]!]! >= beforeMicros) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  timeOf(row: number): number {
    return this.ts[row]!;
  }

  nameOf(row: number): string {
    const kind = this.kind[row]!;
    return kind === EXPLICIT ? this.explicit.get(row)!.event : EVENT_KINDS[kind]!.name;
  }

  personIndexOfRow(row: number): number {
    return this.person[row]!;
  }

  record(row: number): EventRecord {
    const explicit = this.explicit.get(row);
    if (explicit) return explicit;
    return generatedEvent(this, row, this.kind[row]!, this.person[row]!, this.gen[row]!, this.ts[row]!);
  }

  /** The shape of a generated row (see generatedShape); undefined for an explicit event, whose keys are its own. */
  shapeOf(row: number): number | undefined {
    return this.explicit.has(row) ? undefined : generatedShape(this.kind[row]!, this.gen[row]!);
  }

  uuidOf(row: number): string {
    const explicit = this.explicit.get(row);
    return explicit ? explicit.uuid : generatedUuid(row, this.kind[row]!, this.person[row]!, this.gen[row]!, this.ts[row]!);
  }

  distinctIdOf(row: number): string {
    const explicit = this.explicit.get(row);
    return explicit ? explicit.distinct_id : generatedDistinctId(this.persons[this.person[row]!]!.distinct_ids, this.gen[row]!);
  }

  /** An event property read cheaply when possible; SLOW when the whole event must be built. */
  quickProperty(row: number, key: string): JsonObject[string] | undefined | typeof SLOW {
    const explicit = this.explicit.get(row);
    if (explicit) return explicit.properties[key];
    return quickProperty(this, this.person[row]!, this.gen[row]!, key);
  }

  /** Finds an event by UUID (any case, with or without dashes). */
  find(uuid: string): EventRecord | undefined {
    const wanted = normaliseUuid(uuid);
    for (const record of this.explicit.values()) if (normaliseUuid(record.uuid) === wanted) return record;
    const ms = uuidTimeMs(wanted);
    const rows = this.sorted();
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.ts[rows[mid]!]! >= (ms + 1) * 1000) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < rows.length && this.ts[rows[i]!]! >= ms * 1000; i++) {
      const record = this.record(rows[i]!);
      if (record.uuid === wanted) return record;
    }
    return undefined;
  }

  private reserve(extra: number): void {
    const needed = this.count + extra;
    if (needed <= this.ts.length) return;
    let capacity = this.ts.length;
    while (capacity < needed) capacity *= 2;
    this.ts = grow(this.ts, new Float64Array(capacity));
    this.kind = grow(this.kind, new Uint8Array(capacity));
    this.person = grow(this.person, new Int32Array(capacity));
    this.gen = grow(this.gen, new Uint32Array(capacity));
  }
}

function grow<T extends Float64Array | Uint8Array | Int32Array | Uint32Array>(old: T, fresh: T): T {
  fresh.set(old as never);
  return fresh;
}

export function referringDomain(referrer: string): string {
  return referrer === '$direct' ? '$direct' : new URL(referrer).hostname;
}

function toMicros(value: NewEvent['timestamp'], nowMicros: number): number {
  if (value === undefined) return nowMicros;
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime() * 1000;
  const micros = parseIsoMicros(value);
  if (micros === undefined) throw new Error(`Invalid event timestamp: ${value}`);
  return micros;
}

