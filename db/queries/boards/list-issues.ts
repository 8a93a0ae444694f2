// Which issues a board list holds (Boards::Issues::ListService): derived from labels, state, assignees and
// milestone, filtered by the issue list filter and BoardIssueInput's extra filters, every list in one statement.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import {
  awardEmoji,
  issueAssignees,
  issues,
  labelLinks,
  labels,
  milestones,
  namespaces,
  projects,
  users,
  LIST_TYPES,
  type ListRow,
} from '../../schema/index.ts';
import type { Viewer } from '../lib/access.ts';
import { listWhere, type IssueListFilter } from '../issues.ts';
import { rows } from '../lib/raw.ts';

/** One list to fill, with the board's other lists (the backlog leaves out what they hold). */
export interface ListIssuesSpec {
  list: ListRow;
  /** The board's lists of the licensed types (label lists always; assignee and milestone lists when licensed). */
  siblings: readonly ListRow[];
}

/** Open issues for every list but closed; a label, assignee or milestone list holds its own; backlog what none of them do. */
function membership(spec: ListIssuesSpec): SQL {
  const l = spec.list;
  const linked = (labelIds: readonly number[]) =>
    sql`EXISTS (SELECT 1 FROM ${labelLinks} ll WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id} AND ${inArray(sql`ll.label_id`, [...labelIds])})`;
  const assigned = (userIds: readonly number[]) =>
    sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id} AND ${inArray(sql`ia.user_id`, [...userIds])})`;
  const open = eq(issues.state, 'opened');
  switch (l.listType) {
    case LIST_TYPES.closed:
      return eq(issues.state, 'closed');
    case LIST_TYPES.label:
      return and(open, linked([l.labelId!]))!;
    case LIST_TYPES.assignee:
      return and(open, assigned([l.userId!]))!;
    case LIST_TYPES.milestone:
      return and(open, eq(issues.milestoneId, l.milestoneId!))!;
    default: {
      const of = <K extends 'labelId' | 'userId' | 'milestoneId'>(key: K) => spec.siblings.map((s) => s[key]).filter((v): v is number => v !== null);
      const [labelIds, userIds, milestoneIds] = [of('labelId'), of('userId'), of('milestoneId')];
      return and(
        open,
        labelIds.length ? sql`NOT ${linked(labelIds)}` : undefined,
        userIds.length ? sql`NOT ${assigned(userIds)}` : undefined,
        milestoneIds.length ? sql`(${issues.milestoneId} IS NULL OR ${sql`NOT ${inArray(issues.milestoneId, milestoneIds)}`})` : undefined,
      )!;
    }
  }
}

export interface ListIssues {
  /** Issue ids in board order: relative_position ASC NULLS LAST, then id DESC. */
  ids: number[];
  count: number;
  totalWeight: number;
}

/**
 * The issues of each list that match the issue list filter (IssuesFinder's, with the actor's visibility), with their
 * count and total weight: one statement for all the lists.
 */
/**
 * BoardIssueInput's filters the issue list filter has no field for: myReactionEmoji (the current user's award),
 * weight (where licensed), releaseTag, and the `not` negations. 'none' / 'any' as IssuesFinder spells them.
 */
export interface BoardIssueExtra {
  /** The current user's id for myReactionEmoji (anonymous: the filter is ignored, as GitLab's). */
  userId: number | null;
  myReactionEmoji?: string | undefined;
  weight?: string | undefined;
  releaseTag?: string | undefined;
  not?: {
    labels?: string[] | undefined;
    milestone?: string | undefined;
    assigneeUsernames?: string[] | undefined;
    authorUsername?: string | undefined;
    myReactionEmoji?: string | undefined;
    weight?: string | undefined;
    releaseTag?: string | undefined;
  };
}

const special = (v: string) => (/^none$/i.test(v) ? 'none' : /^any$/i.test(v) ? 'any' : null);

function reacted(userId: number, name: string) {
  const s = special(name);
  const award = sql`EXISTS (SELECT 1 FROM ${awardEmoji} a WHERE a.awardable_type = 'Issue' AND a.awardable_id = ${issues.id} AND a.user_id = ${userId}${s ? sql`` : sql` AND a.name = ${name}`})`;
  return s === 'none' ? sql`NOT ${award}` : award;
}

function weighs(value: string) {
  const s = special(value);
  if (s === 'none') return sql`${issues.weight} IS NULL`;
  if (s === 'any') return sql`${issues.weight} IS NOT NULL`;
  return /^\d+$/.test(value) ? eq(issues.weight, Number(value)) : sql`false`;
}

const labelled = (titles: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id} AND ${inArray(sql`l.title`, [...titles])})`;
const assignedTo = (usernames: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia JOIN ${users} u ON u.id = ia.user_id WHERE ia.issue_id = ${issues.id} AND ${inArray(
    sql`lower(u.username)`,
    usernames.map((u) => u.toLowerCase()),
  )})`;

/** The conditions of BoardIssueExtra (releases do not exist here: a release tag matches no issue). */
export function boardIssueConditions(e: BoardIssueExtra): SQL[] {
  const c: SQL[] = [];
  if (e.myReactionEmoji !== undefined && e.userId !== null) c.push(reacted(e.userId, e.myReactionEmoji));
  if (e.weight !== undefined) c.push(weighs(e.weight));
  if (e.releaseTag !== undefined) c.push(sql`false`);
  const n = e.not ?? {};
  if (n.labels?.length) c.push(sql`NOT ${labelled(n.labels)}`);
  if (n.milestone !== undefined) c.push(sql`(${issues.milestoneId} IS NULL OR ${milestones.title} <> ${n.milestone})`);
  if (n.assigneeUsernames?.length) c.push(sql`NOT ${assignedTo(n.assigneeUsernames)}`);
  if (n.authorUsername !== undefined)
    c.push(sql`NOT EXISTS (SELECT 1 FROM ${users} u WHERE u.id = ${issues.authorId} AND lower(u.username) = lower(${n.authorUsername}))`);
  if (n.myReactionEmoji !== undefined && e.userId !== null && !special(n.myReactionEmoji)) c.push(sql`NOT ${reacted(e.userId, n.myReactionEmoji)}`);
  if (n.weight !== undefined && /^\d+$/.test(n.weight)) c.push(sql`${issues.weight} IS DISTINCT FROM ${Number(n.weight)}`);
  return c;
}

export async function issuesOfLists(
  db: Db,
  actor: Viewer,
  filter: IssueListFilter,
  extra: BoardIssueExtra,
  specs: readonly ListIssuesSpec[],
): Promise<ListIssues[]> {
  if (!specs.length) return [];
  const conditions = boardIssueConditions(extra);
  const parts = specs.map(
    (spec) => sql`(SELECT ${spec.list.id}::int AS list_id,
        COALESCE(json_agg(${issues.id} ORDER BY ${issues.relativePosition} ASC NULLS LAST, ${issues.id} DESC), '[]'::json) AS ids,
        count(*)::int AS n, COALESCE(sum(${issues.weight}), 0)::int AS w
      FROM ${issues}
      JOIN ${projects} ON ${projects.id} = ${issues.projectId}
      JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
      LEFT JOIN ${milestones} ON ${milestones.id} = ${issues.milestoneId}
      WHERE ${and(listWhere(actor, filter), membership(spec), ...conditions)})`,
  );
  const found = await rows<{ list_id: number; ids: number[] | string; n: number; w: number }>(db, sql.join(parts, sql` UNION ALL `));
  const by = new Map(found.map((r) => [Number(r.list_id), r]));
  return specs.map((s) => {
    const r = by.get(s.list.id);
    const ids = r ? (typeof r.ids === 'string' ? (JSON.parse(r.ids) as number[]) : r.ids) : [];
    return { ids: ids.map(Number), count: Number(r?.n ?? 0), totalWeight: Number(r?.w ?? 0) };
  });
}
