// GraphQL's merge request mutations (13.6 shapes): mergeRequestCreate, mergeRequestUpdate and the mergeRequestSet*
// family over the REST verbs (createMergeRequest, updateMergeRequest with REST's parameter names,
// setMergeRequestSubscribed), and createDiffNote / createImageDiffNote over the discussions' verb. Not found and
// forbidden are the top-level resource error (authorized_find!), the services' refusals the payload's `errors`.
import { iidOf } from '../graphql/ids.ts';
import { createDiscussion } from '../discussions/service.ts';
import { mutation, resourceNotAvailable } from '../graphql/errors.ts';
import type { MutationOperationMode, Resolvers } from '../graphql/generated.ts';
import type { MergeRequestModel } from './models.ts';
import { scalars } from '../graphql/scalars.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidRecord, validationFailed } from '../lib/errors.ts';
import { can } from '../lib/policy.ts';
import { findNoteableById } from '../notes/service.ts';
import { findProject } from '../projects/service.ts';
import { usersPage } from '../users/reads.ts';
import { isDraft as isDraftTitle, labelTitlesByIds, wiplessTitle } from './reads.ts';
import type { PositionParams } from './position-schemas.ts';
import { fromGraphqlImagePosition, fromGraphqlTextPosition, type StoredPosition } from './positions.ts';
import type { CreateMergeRequestParams, UpdateMergeRequestParams } from './schemas.ts';
import { createMergeRequest } from './create.ts';
import { findMergeRequest, mergeRequestFacts } from './service.ts';
import { updateMergeRequest } from './update.ts';
import { setMergeRequestSubscribed } from './tracking.ts';

interface TargetInput {
  projectPath: string;
  iid: string;
  clientMutationId?: string | null;
}

/** authorized_find!(project_path:, iid:): the readable MR; a missing one reads as the resource error. */
async function findTarget(ctx: RequestContext, input: TargetInput) {
  const iid = iidOf(input.iid);
  if (iid === null) throw resourceNotAvailable();
  return findMergeRequest(ctx, { project: { path: input.projectPath }, iid }, { subscribed: true });
}

/** An update through the REST verb (its parameter names), answered as a payload. */
async function updatePayload(ctx: RequestContext, input: TargetInput, params: (found: MergeRequestModel) => Promise<UpdateMergeRequestParams | null>) {
  const { value, errors } = await mutation(async (): Promise<MergeRequestModel> => {
    const found = await findTarget(ctx, input);
    const p = await params(found);
    // Nothing to change: the MR as it is, once the caller may update it (Mutations::MergeRequests::Base's authorize).
    if (p === null || Object.values(p).every((v) => v === undefined)) {
      if (!can(ctx.actor, 'merge_request:update', mergeRequestFacts(found.project, found.view))) throw resourceNotAvailable();
      return found;
    }
    const view = await updateMergeRequest({ ctx, input: { project: { id: found.project.project.id }, iid: found.view.mr.iid, params: p } });
    return { project: found.project, view };
  });
  return { clientMutationId: input.clientMutationId, errors, mergeRequest: value };
}

/** MergeRequest.wip_title: `Draft: ` before a title that is not a draft yet. */
const wipTitle = (title: string) => (isDraftTitle(title) ? title : `Draft: ${title}`);

/** SetAssignees/SetLabels: the ids the operation mode leaves (REPLACE by default). */
function operate(mode: MutationOperationMode | null | undefined, current: readonly number[], given: readonly number[]): number[] {
  if (mode === 'APPEND') return [...new Set([...current, ...given])];
  if (mode === 'REMOVE') return current.filter((id) => !given.includes(id));
  return [...new Set(given)];
}

/** UsersFinder(username:): the ids of the users with these usernames (unknown ones are dropped, as GitLab does). */
async function userIdsByUsernames(ctx: RequestContext, usernames: readonly string[]): Promise<number[]> {
  if (!usernames.length) return [];
  const page = { afterId: undefined, beforeId: undefined, limit: 100, reverse: false, order: 'asc' as const };
  const rows = await usersPage(ctx, { usernames }, page);
  return rows.map((u) => u.id);
}

/**
 * createDiffNote / createImageDiffNote: the noteable by global id (NoteableID's messages), then the REST discussions'
 * verb (POST .../merge_requests/:iid/discussions with a position: one rule for where a DiffNote may sit, two faces).
 * Only merge requests take diff notes here (DiffNote#verify_supported).
 */
async function diffNotePayload(ctx: RequestContext, input: { noteableId: string; body: string; clientMutationId?: string | null }, position: StoredPosition) {
  const { value, errors } = await mutation(async () => {
    const gid = scalars.NoteableID.parseValue(input.noteableId) as { type: string; id: number | string };
    if (typeof gid.id !== 'number') throw resourceNotAvailable();
    const noteable = await findNoteableById(ctx, { type: gid.type, id: gid.id });
    if (!can(ctx.actor, 'noteable:create_note', noteable.facts)) throw resourceNotAvailable();
    if (noteable.key.type !== 'MergeRequest') throw invalidRecord('Note', { noteable: ["doesn't support new-style diff notes"] }, 'bad_request');
    const params = { body: input.body, position: position as PositionParams };
    const created = await createDiscussion({
      ctx,
      input: { noteable: { kind: 'merge_requests', project: { id: noteable.project!.project.id }, id: noteable.iid }, params },
    });
    return { noteable: created.noteable, view: created.discussion.notes[0]! };
  });
  return { clientMutationId: input.clientMutationId, errors, note: value };
}

export const mergeRequestMutationResolvers: Resolvers = {
  Mutation: {
    createDiffNote: (_root, { input }, { ctx }) => diffNotePayload(ctx, input, fromGraphqlTextPosition(input.position)),
    createImageDiffNote: (_root, { input }, { ctx }) => diffNotePayload(ctx, input, fromGraphqlImagePosition(input.position)),
    mergeRequestCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(async (): Promise<MergeRequestModel> => {
        const project = await findProject(ctx, { path: input.projectPath });
        const params: CreateMergeRequestParams = {
          source_branch: input.sourceBranch,
          target_branch: input.targetBranch,
          title: input.title,
          ...(input.description != null ? { description: input.description } : {}),
          ...(input.labels != null ? { labels: [...input.labels] } : {}),
        };
        const view = await createMergeRequest({ ctx, input: { project: { id: project.project.id }, params } });
        return { project, view };
      });
      return { clientMutationId: input.clientMutationId, errors, mergeRequest: value };
    },
    mergeRequestUpdate: (_root, { input }, { ctx }) =>
      updatePayload(ctx, input, async () => ({
        title: input.title ?? undefined,
        description: input.description ?? undefined,
        target_branch: input.targetBranch ?? undefined,
      })),
    mergeRequestSetAssignees: (_root, { input }, { ctx }) =>
      updatePayload(ctx, input, async (found) => ({
        assignee_ids: operate(
          input.operationMode,
          found.view.assignees.map((a) => a.id),
          await userIdsByUsernames(ctx, input.assigneeUsernames),
        ),
      })),
    mergeRequestSetLabels: (_root, { input }, { ctx }) =>
      updatePayload(ctx, input, async (found) => {
        const titles = await labelTitlesByIds(ctx, found.project, input.labelIds);
        // The label ids given, as titles the REST verb takes (labels not available to the project are dropped).
        if (input.operationMode === 'APPEND') return { add_labels: titles };
        if (input.operationMode === 'REMOVE') return { remove_labels: titles };
        return { labels: titles };
      }),
    mergeRequestSetMilestone: (_root, { input }, { ctx }) => updatePayload(ctx, input, async () => ({ milestone_id: input.milestoneId ?? 0 })),
    mergeRequestSetWip: (_root, { input }, { ctx }) =>
      updatePayload(ctx, input, async (found) => ({ title: input.wip ? wipTitle(found.view.mr.title) : wiplessTitle(found.view.mr.title) })),
    mergeRequestSetLocked: (_root, { input }, { ctx }) => updatePayload(ctx, input, async () => ({ discussion_locked: input.locked })),
    mergeRequestSetSubscription: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(async (): Promise<MergeRequestModel> => {
        const found = await findTarget(ctx, input);
        return setMergeRequestSubscribed({
          ctx,
          input: { project: { id: found.project.project.id }, iid: found.view.mr.iid, subscribed: input.subscribedState },
        });
      });
      return { clientMutationId: input.clientMutationId, errors, mergeRequest: value };
    },
  },
};
