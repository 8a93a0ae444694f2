// What the deliverer needs of a notification's target, read as the system (no actor): where it lives (its project,
// or its group for a group-level target such as an epic), the texts that mention people, its assignees and labels,
// the policy's read rule for it, and what the message names.
import { readerActor } from '../lib/auth.ts';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../db/queries/lib/access.ts';
import { findIssueViewById } from '../issues/lookups.ts';
import { findMergeRequestViewById } from '../merge-requests/lookups.ts';
import { findEpicViewsByIds } from '../epics/lookups.ts';
import { findGroupView } from '../groups/lookups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import type { NotificationTargetType, UserRow } from '../../db/schema/index.ts';
import { issueFacts, issueReader } from '../issues/service.ts';
import { groupFacts } from '../groups/service.ts';
import { can } from '../lib/policy.ts';
import { mergeRequestFacts, readsMergeRequestAs } from '../merge-requests/service.ts';

const SYSTEM: Viewer = { user: null };

export interface NotificationTarget {
  /** The project of a project-level target; null for a group-level one. */
  project: ProjectView | null;
  /** Where candidates' levels come from: the project (null for a group-level target) and the groups above it. */
  source: { projectId: number | null; traversalIds: number[] };
  /** The subject's first part: the project's name, or the group's for a group-level target. */
  sourceName: string;
  title: string;
  /** `#iid`, `!iid` or `&iid`. */
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

const projectSource = (project: ProjectView) => ({
  project,
  source: { projectId: project.project.id, traversalIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [] },
  sourceName: project.project.name,
});

/**
 * An epic (GitLab EE): its group's; readers are those EpicPolicy lets read it at their level (confidential: reporters).
 * The license was checked when the event was recorded (the outbox row exists only on Premium and above).
 */
async function loadEpic(db: Db, id: number): Promise<NotificationTarget | undefined> {
  const [view] = await findEpicViewsByIds(db, [id]);
  const group = view && (await findGroupView(db, SYSTEM, { id: view.epic.groupId }));
  if (!view || !group) return undefined;
  return {
    project: null,
    source: { projectId: null, traversalIds: group.namespace.traversalIds },
    sourceName: group.namespace.name,
    title: view.epic.title,
    reference: `&${view.epic.iid}`,
    texts: [view.epic.title, view.epic.description],
    assigneeIds: [],
    labelIds: view.labels.map((l) => l.id),
    mayRead: (user, accessLevel) =>
      can(readerActor(user), 'group:read_epic', {
        ...groupFacts(group),
        accessLevel,
        hasDescendantAccess: false,
        epicsAvailable: true,
        confidential: view.epic.confidential,
      }),
  };
}

/** The target as it is now; undefined when it (or its project or group) is gone. */
export async function loadTarget(db: Db, type: NotificationTargetType, id: number): Promise<NotificationTarget | undefined> {
  if (type === 'Epic') return loadEpic(db, id);
  if (type === 'MergeRequest') {
    const view = await findMergeRequestViewById(db, SYSTEM, id);
    const project = view && (await projectOf(db, view.mr.targetProjectId));
    if (!view || !project) return undefined;
    return {
      ...projectSource(project),
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
    ...projectSource(project),
    title: view.issue.title,
    reference: `#${view.issue.iid}`,
    texts: [view.issue.title, view.issue.description],
    assigneeIds: facts.assigneeIds,
    labelIds: view.labels.map((l) => l.id),
    mayRead: issueReader(project, view.issue, facts.assigneeIds),
  };
}
