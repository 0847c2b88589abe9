import type { HogQLMetadataResponse, HogQLNotice } from '../api';
import type { QueryTextMap } from './textOffsets';

export type NoticeSeverity = 'error' | 'warning' | 'notice';

/** One of PostHog's findings, placed in the document: offsets into the document's text. */
export interface PlacedNotice {
  readonly start: number;
  readonly end: number;
  /** PostHog's message, shown as literal text. */
  readonly message: string;
  readonly severity: NoticeSeverity;
}

/**
 * HogQLMetadata's errors, warnings and notices at their places in the document. PostHog's `start`/`end` are
 * taken as UTF-16 offsets into the text sent (JavaScript string indices; posthog-behaviour.md leaves open
 * whether they count code points); a finding without them covers the whole query. vscode-free.
 */
export function placeNotices(response: HogQLMetadataResponse, map: QueryTextMap): PlacedNotice[] {
  return [
    ...response.errors.map((notice) => place(notice, 'error', map)),
    ...response.warnings.map((notice) => place(notice, 'warning', map)),
    ...response.notices.map((notice) => place(notice, 'notice', map)),
  ];
}

function place(notice: HogQLNotice, severity: NoticeSeverity, map: QueryTextMap): PlacedNotice {
  const start = notice.start ?? 0;
  const end = notice.end ?? (notice.start === null || notice.start === undefined ? map.text.length : start);
  return { start: map.toDocument(start), end: map.toDocument(Math.max(start, end)), message: notice.message, severity };
}
