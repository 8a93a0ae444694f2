// POST /projects/:id/fork: the fork written as one batch (db/queries/repositories/forks.ts), whatever the
// repository's size.
import { forkProjectQueries } from '../repositories/statements.ts';
import { namespaceIsLive } from '../repositories/lookups.ts';
import { EVENT_ACTIONS } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isDomainError, notFound, notModified } from '../lib/errors.ts';
import { linkFork, unlinkFork } from '../../db/queries/projects.ts';
import { parseRef, type Ref } from '../lib/ids.ts';
import type { Output } from '../lib/validate.ts';
import { assertCan, Visibility } from '../lib/policy.ts';
import type { ForkProjectInput } from './schemas.ts';
import { reload, findProject, projectFacts } from './service.ts';
import { targetNamespace, namespaceNotValid, pathTaken, rethrowTaken } from './placement.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const targetNamespaceNotFound = () => notFound('Target Namespace');

/**
 * POST /projects/:id/fork: the source (one read), the target namespace (one read), then the whole write as one batch
 * of two statements (db/queries/repositories/forks.ts: locks, then every row the fork needs, its repository's refs
 * included, in one data-modifying statement) and the fork as GET answers it: a constant number of queries whatever
 * the repository's size.
 */
export async function forkProject({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof ForkProjectInput>>) {
  const user = requireUser(ctx);
  const source = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:fork', projectFacts(source));
  // The first of namespace_id, namespace, namespace_path that was given (a given but unusable one is not skipped).
  const nsRef =
    input.namespace_id !== undefined
      ? input.namespace_id
      : input.namespace !== undefined
        ? input.namespace
        : input.namespace_path !== undefined
          ? parseRef(input.namespace_path)
          : undefined;
  const target = await targetNamespace(ctx, nsRef, targetNamespaceNotFound);
  const ns = target.namespace;
  // A fork is never more visible than its source, nor than its group.
  const wanted = Math.min(input.visibility ? Visibility[input.visibility] : source.project.visibilityLevel, source.project.visibilityLevel);
  const visibility = Math.min(wanted, ns.kind === 'group' ? ns.visibilityLevel : Visibility.public);
  try {
    const [, inserted] = await ctx.batch((db) =>
      forkProjectQueries(db, {
        sourceId: source.project.id,
        namespaceId: ns.id,
        personal: ns.kind === 'user',
        ownerId: user.id,
        creatorId: user.id,
        name: input.name ?? source.project.name,
        path: input.path ?? source.project.path,
        description: input.description ?? source.project.description,
        visibilityLevel: visibility,
        defaultBranch: source.project.defaultBranch ?? null,
        createdAction: EVENT_ACTIONS.created,
      }),
    );
    const [row] = resultRows<{ id: number }>(inserted);
    // Nothing written: the namespace went away (its lock found no live row) or the path is taken (the same answers
    // as a create's transaction gives).
    if (!row) throw (await namespaceIsLive(ctx.db, ns.id)) ? pathTaken() : namespaceNotValid();
    return await reload(ctx, Number(row.id));
  } catch (error) {
    // GitLab answers fork failures with 409 and the model errors.
    try {
      rethrowTaken(error);
    } catch (mapped) {
      if (isDomainError(mapped, 'invalid') && mapped.problem.kind === 'model') throw conflict(mapped.problem.fields);
      throw mapped;
    }
  }
}

/** Rows of a batch's `execute` result, whichever driver ran it (as db/queries/lib/raw.ts's `rows`). */
const resultRows = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * POST /projects/:id/fork/:forked_from_id (13.6): the project's administrators mark it a fork of a project they can
 * read (ForkService#link_existing_project); a project that already is a fork is 409 `Project already forked`. The
 * two keep their own repositories: merge requests between them need a shared object pool, which only a fork made
 * here has.
 */
export async function linkForkedFrom({ ctx, input }: Verb<{ ref: Ref | null; sourceRef: Ref | null }>) {
  requireUser(ctx);
  const project = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:update', projectFacts(project));
  const source = await findProject(ctx, input.sourceRef);
  if (!(await linkFork(ctx.db, project.project.id, source.project.id))) throw conflict('Project already forked');
  return reload(ctx, project.project.id);
}

/** DELETE /projects/:id/fork: owners remove the relation (remove_fork_project); 304 when the project is no fork. */
export async function unlinkForkedFrom({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireUser(ctx);
  const project = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:remove_fork', projectFacts(project));
  if (!(await unlinkFork(ctx.db, project.project.id))) throw notModified();
}
