export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** True for what an aborted call rejects with (the signal's reason, or a DOMException named AbortError). */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error)) {
    return false;
  }
  // AbortSignal.timeout() aborts with a DOMException named TimeoutError (not our TimeoutError class).
  return error.name === 'AbortError' || (error instanceof DOMException && error.name === 'TimeoutError');
}

/** Node cuts a longer timer to 1 ms: a wait past it would wake a thousand times a second. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    if (!(ms <= MAX_TIMER_MS)) {
      reject(new RangeError(`refused to sleep ${ms} ms: longer than a timer can wait`));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Runs an injected sleep but stops the wait as soon as the signal aborts, whatever the sleep does. */
export function sleepUnlessAborted(sleep: Sleep, ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) {
    return sleep(ms);
  }
  if (signal.aborted) {
    return Promise.reject(abortReason(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms, signal).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
