// What the deliverer needs of a notification's target, read as the system (no actor): its project, the texts that
// mention people, its assignees and labels, the policy's read rule for it, and what the message names.
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../db/queries/access.ts';
import { findIssueViewById } from '../../db/queries/issues.ts';
import { findMergeRequestViewById } from '../../db/queries/merge-requests.ts';
import { projectViewQuery, toProjectView, type ProjectView } from '../../db/queries/projects.ts';
import type { NotificationTargetType, UserRow } from '../../db/schema/index.ts';
import { issueFacts, issueReader } from '../issues/service.ts';
import { mergeRequestFacts, readsMergeRequestAs } from '../merge-requests/service.ts';

const SYSTEM: Viewer = { user: null };

export interface NotificationTarget {
  project: ProjectView;
  title: string;
  /** `#iid` or `!iid`. */
  reference: string;
  texts: [string, string | null];
  assigneeIds: readonly number[];
  labelIds: readonly number[];
  mayRead: (reader: UserRow, accessLevel: number) => boolean;
}

async function projectOf(db: Db, id: number) {
  const [row] = await projectViewQuery(db, SYSTEM, { id });
  return row ? toProjectView(row) : undefined;
}

/** The target as it is now; undefined when it (or its project) is gone. */
export async function loadTarget(db: Db, type: NotificationTargetType, id: number): Promise<NotificationTarget | undefined> {
  if (type === 'MergeRequest') {
    const view = await findMergeRequestViewById(db, SYSTEM, id);
    const project = view && (await projectOf(db, view.mr.targetProjectId));
    if (!view || !project) return undefined;
    return {
      project,
      title: view.mr.title,
      reference: `!${view.mr.iid}`,
      texts: [view.mr.title, view.mr.description],
      assigneeIds: view.assignees.map((a) => a.id),
      labelIds: view.labels.map((l) => l.id),
      mayRead: readsMergeRequestAs(mergeRequestFacts(project, view)),
    };
  }
  const view = await findIssueViewById(db, SYSTEM, id);
  const project = view && (await projectOf(db, view.issue.projectId));
  if (!view || !project) return undefined;
  const facts = issueFacts(project, view);
  return {
    project,
    title: view.issue.title,
    reference: `#${view.issue.iid}`,
    texts: [view.issue.title, view.issue.description],
    assigneeIds: facts.assigneeIds,
    labelIds: view.labels.map((l) => l.id),
    mayRead: issueReader(project, view.issue, facts.assigneeIds),
  };
}
