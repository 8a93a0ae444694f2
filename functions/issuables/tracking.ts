// Verbs issues and merge requests share beyond CRUD (GitLab's TimeTrackingEndpoints, subscriptions and the "mark as
// to-do" action), written once over the kind: each kind says how it finds and locks its row and which policy action
// manages it. Each write locks the issuable's row in its transaction, so concurrent calls serialize per issuable.
import type { Db } from '../../db/client.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { parseDuration } from './duration.ts';
import { notModified, validationFailed } from '../lib/errors.ts';
import { setSubscription } from '../notifications/statements.ts';
import { findPendingMarkedTodo, insertTodo, TODO_MARKED, type TodoTargetType } from '../todos/statements.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type TimeRow = { id: number; timeEstimate: number; totalTimeSpent: number };

/** An issuable found readable (404/403 already decided), with its project, and whether the caller subscribed. */
export interface Found<V> {
  project: ProjectView;
  view: V & { subscribed: boolean };
}

/** What the shared verbs need of a kind of issuable (issues, merge requests). */
export interface IssuableKind<Ref, V, R extends TimeRow> {
  type: TodoTargetType;
  find(ctx: RequestContext, ref: Ref, options?: { subscribed?: boolean }): Promise<Found<V>>;
  /** The issuable's row in its view. */
  row(view: V): R;
  /** admin_issue / admin_merge_request: who manages time tracking. */
  assertAdmin(ctx: RequestContext, found: Found<V>): void;
  /** What (un)subscribing needs beyond reading (merge requests: update_merge_request). */
  assertSubscribe?(ctx: RequestContext, found: Found<V>): void;
  /** The row, locked for the rest of the transaction. */
  lock(tx: Db, id: number): Promise<R | undefined>;
  setEstimate(tx: Db, id: number, seconds: number): Promise<void>;
  /** Adds a timelog and moves the row's total with it. */
  addTimelog(tx: Db, id: number, userId: number, seconds: number): Promise<void>;
}

/** The shared verbs of one kind, for its REST routes and GraphQL mutations. */
export function issuableVerbs<Ref, V, R extends TimeRow>(kind: IssuableKind<Ref, V, R>) {
  const manageable = async (ctx: RequestContext, ref: Ref) => {
    requireUser(ctx);
    const found = await kind.find(ctx, ref);
    kind.assertAdmin(ctx, found);
    return found;
  };
  return {
    async getTimeStats({ ctx, input }: Verb<Ref>): Promise<R> {
      return kind.row((await kind.find(ctx, input)).view);
    },

    /** POST .../time_estimate and .../reset_time_estimate (`duration` null): the row after the change. */
    async setTimeEstimate({ ctx, input }: Verb<Ref & { duration: string | null }>): Promise<R> {
      const id = kind.row((await manageable(ctx, input)).view).id;
      const seconds = input.duration === null ? 0 : parseDuration(input.duration);
      if (seconds === null || seconds < 0) throw validationFailed({ time_estimate: ['has an invalid format'] });
      return ctx.transaction(async (tx) => {
        await kind.lock(tx, id);
        await kind.setEstimate(tx, id, seconds);
        return (await kind.lock(tx, id))!;
      });
    },

    /** POST .../add_spent_time and .../reset_spent_time (`duration` null: a timelog that takes the total back to 0). */
    async addSpentTime({ ctx, input }: Verb<Ref & { duration: string | null }>): Promise<R> {
      const user = requireUser(ctx);
      const id = kind.row((await manageable(ctx, input)).view).id;
      const parsed = input.duration === null ? 0 : parseDuration(input.duration);
      if (parsed === null) throw validationFailed({ time_spent: ['has an invalid format'] });
      return ctx.transaction(async (tx) => {
        const row = (await kind.lock(tx, id))!;
        const seconds = input.duration === null ? -row.totalTimeSpent : parsed;
        if (row.totalTimeSpent + seconds < 0) throw validationFailed({ time_spent: ['Time to subtract exceeds the total time spent'] });
        if (seconds !== 0) await kind.addTimelog(tx, id, user.id, seconds);
        return (await kind.lock(tx, id))!;
      });
    },

    /** Subscribes or unsubscribes the caller explicitly: the issuable as now; 304 (thrown) when it already was so. */
    async setSubscribed({ ctx, input }: Verb<Ref & { subscribed: boolean }>): Promise<Found<V>> {
      const user = requireUser(ctx);
      const found = await kind.find(ctx, input, { subscribed: true });
      kind.assertSubscribe?.(ctx, found);
      if (found.view.subscribed === input.subscribed) throw notModified();
      const id = kind.row(found.view).id;
      await ctx.transaction((tx) => setSubscription(tx, id, found.project.project.id, user.id, input.subscribed, kind.type));
      return { project: found.project, view: { ...found.view, subscribed: input.subscribed } };
    },

    /**
     * TodoService#mark_todo: a "marked" to-do of the caller on the issuable, unless a pending one exists (then 304,
     * thrown). The row lock makes two concurrent calls one to-do.
     */
    async markTodo({ ctx, input }: Verb<Ref>) {
      const user = requireUser(ctx);
      const { project, view } = await kind.find(ctx, input);
      const id = kind.row(view).id;
      const todo = await ctx.transaction(async (tx) => {
        await kind.lock(tx, id);
        if (await findPendingMarkedTodo(tx, id, user.id, kind.type)) return null;
        return insertTodo(tx, { userId: user.id, authorId: user.id, projectId: project.project.id, targetType: kind.type, targetId: id, action: TODO_MARKED });
      });
      if (!todo) throw notModified();
      return { todo, project, view };
    },
  };
}
