// PostHog's personal-API-key rate limits, counted like DRF's SimpleRateThrottle (sliding window of
// request times per key; a refused request is not counted by the throttle that refused it).

/**
 * `clickhouse`: the events list and retrieve, every /query/ request but a POST of a HogQLQuery, and its polls
 * and cancels (one pair of buckets); `query`: a POST of a HogQLQuery (no minute bucket); events/values has
 * its own limits (PostHog's EventValues*Throttle).
 */
export type ThrottleBucket = 'default' | 'clickhouse' | 'query' | 'eventValues';

const RATES: Record<ThrottleBucket, { requests: number; seconds: number }[]> = {
  default: [{ requests: 480, seconds: 60 }, { requests: 4800, seconds: 3600 }],
  clickhouse: [{ requests: 240, seconds: 60 }, { requests: 1200, seconds: 3600 }],
  query: [{ requests: 120, seconds: 3600 }],
  eventValues: [{ requests: 60, seconds: 60 }, { requests: 300, seconds: 3600 }],
};

export class RateLimiter {
  private readonly history = new Map<string, number[]>();

  /** Records the request and returns undefined, or returns the wait in seconds when throttled. */
  check(key: string, bucket: ThrottleBucket, nowMs: number): number | undefined {
    const waits: number[] = [];
    for (const rate of RATES[bucket]) {
      const id = `${bucket}:${rate.seconds}:${key}`;
      const times = this.history.get(id) ?? [];
      const windowMs = rate.seconds * 1000;
      let expired = 0;
      while (expired < times.length && times[expired]! <= nowMs - windowMs) expired++;
      if (expired) times.splice(0, expired);
      if (times.length >= rate.requests) {
        const remainingMs = windowMs - (nowMs - times[0]!);
        const available = rate.requests - times.length + 1;
        if (available > 0) waits.push(remainingMs / 1000 / available);
        continue;
      }
      times.push(nowMs);
      this.history.set(id, times);
    }
    return waits.length ? Math.max(...waits) : undefined;
  }
}
