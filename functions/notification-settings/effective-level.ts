// Which notification level applies to a user on a project (GitLab's NotificationRecipients::BuildService walks the
// same chain): the project's own setting, else the nearest group up the project's namespace chain whose level is
// not `global` (a group set to global inherits), else the user's global setting (participating by default).
import { resolveNotificationLevel } from '../../db/queries/notification-settings.ts';
import type { NotificationLevel } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';

/** The effective level (never `global`), in one query; 404 `Project Not Found` when the project does not exist. */
export async function effectiveNotificationLevel(ctx: Pick<RequestContext, 'db'>, userId: number, projectId: number): Promise<Exclude<NotificationLevel, 'global'>> {
  const level = await resolveNotificationLevel(ctx.db, userId, projectId);
  if (!level) throw notFound('Project');
  return level as Exclude<NotificationLevel, 'global'>;
}
