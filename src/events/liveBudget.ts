// One connection's budget of live-event polls, shared by all its open events panels. vscode-free.
// PostHog allows a personal API key 240 events requests a minute (and 1,200 an hour); live polls take
// at most half of the minute's allowance, so paging, exports and suggestions keep the rest.

/** Live polls a connection makes in a minute, all its panels together. */
export const LIVE_POLLS_PER_MINUTE = 120;
const MINUTE_MS = 60_000;

export class LiveBudget {
  /** When the polls of the last minute were made, oldest first. */
  private readonly recent: number[] = [];

  constructor(private readonly perMinute = LIVE_POLLS_PER_MINUTE) {}

  /** Milliseconds to wait before the next poll fits the budget (0: now). */
  waitMs(now: number): number {
    this.forget(now);
    return this.recent.length < this.perMinute ? 0 : this.recent[0]! + MINUTE_MS - now;
  }

  /** Counts a poll made now; false (nothing counted) when the budget has no room. */
  take(now: number): boolean {
    if (this.waitMs(now) > 0) {
      return false;
    }
    this.recent.push(now);
    return true;
  }

  private forget(now: number): void {
    while (this.recent.length > 0 && this.recent[0]! <= now - MINUTE_MS) {
      this.recent.shift();
    }
  }
}

/** The budgets of all connections: panels of one connection get the same budget. */
export class LiveBudgets {
  private readonly budgets = new Map<string, LiveBudget>();

  constructor(private readonly perMinute = LIVE_POLLS_PER_MINUTE) {}

  of(connectionId: string): LiveBudget {
    let budget = this.budgets.get(connectionId);
    if (!budget) {
      budget = new LiveBudget(this.perMinute);
      this.budgets.set(connectionId, budget);
    }
    return budget;
  }
}

/** The extension's budgets (one per connection for the whole window). */
export const liveBudgets = new LiveBudgets();
