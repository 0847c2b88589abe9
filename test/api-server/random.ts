// Seeded pseudo-random numbers and the identifier formats PostHog uses.
import { randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Small, fast, deterministic PRNG (mulberry32). */
export class Rng {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[this.uint32() % 62];
    return out;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += (this.uint32() & 15).toString(16);
    return out;
  }

  /** A UUID whose first 48 bits are the given time in ms (UUIDv7 layout, like PostHog's UUIDT). */
  uuid(timeMs: number): string {
    return uuidFromParts(timeMs, this.uint32(), this.uint32(), this.uint32());
  }
}

export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Mixes integers into one well-spread 32-bit value (for deriving stable per-row randomness). */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h ^= v >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex32 = (n: number): string =>
  BYTE_HEX[n >>> 24]! + BYTE_HEX[(n >>> 16) & 255]! + BYTE_HEX[(n >>> 8) & 255]! + BYTE_HEX[n & 255]!;

/** UUIDv7 layout: 48 bits of ms time, version 7, variant 10, the rest from a, b and c. (Hot path: table-based hex.) */
export function uuidFromParts(timeMs: number, a: number, b: number, c: number): string {
  const t = Math.max(0, Math.floor(timeMs));
  const high = Math.floor(t / 65536) >>> 0;
  const low = t & 0xffff;
  const hexA = hex32(a >>> 0);
  const hexB = hex32(b >>> 0);
  const hexC = hex32(c >>> 0);
  const variant = ((((b >>> 28) & 0x3) | 0x8) >>> 0).toString(16);
  return `${hex32(high)}-${BYTE_HEX[low >>> 8]}${BYTE_HEX[low & 255]}-7${hexA.slice(0, 3)}-${variant}${hexB.slice(1, 4)}-${hexA.slice(3, 8)}${hexC.slice(0, 7)}`;
}

/** Milliseconds encoded in the first 48 bits of a UUIDv7-style id. */
export function uuidTimeMs(uuid: string): number {
  return parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
}

const UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/** Canonical lower-case, dashed form of a UUID given with or without dashes. */
export function normaliseUuid(text: string): string {
  const hex = text.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Cryptographically random base62 text, for values that need not be reproducible (new API keys). */
export function randomBase62(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}
