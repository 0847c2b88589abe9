// The activity envelope shared by project and notebook activity: page/limit paging, newest first.
import type { ActivityEntry } from '../model';
import { intParam, ok, pageUrl, type Ctx, type Reply } from '../http';
import { activityEntry } from '../serializers';

export function activityPage(ctx: Ctx, entries: ActivityEntry[]): Reply {
  const limit = ctx.store.settings.activityIgnoresLimit ? Math.max(1, entries.length) : intParam(ctx, 'limit', 10, 1);
  const page = intParam(ctx, 'page', 1, 1);
  const start = (page - 1) * limit;
  return ok({
    results: entries.slice(start, start + limit).map((a) => activityEntry(ctx.store, a)),
    next: entries.length > page * limit ? pageUrl(ctx, page + 1, limit) : null,
    previous: page > 1 ? pageUrl(ctx, page - 1, limit) : null,
    total_count: entries.length,
  });
}
