// PUT /projects/:id: the settings, a rename (path locked and checked as on create), the avatar, the nested container
// expiration policy and the compliance framework in one transaction, then HEAD moved to the new default branch.
import { fullPathTaken, lockFullPath, lockLiveNamespace } from '../groups/lookups.ts';
import * as q from '../../db/queries/projects.ts';
import { findRef } from '../repositories/lookups.ts';
import { setDefaultBranchQuery } from '../repositories/statements.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import type { Output } from '../lib/validate.ts';
import { assertCan, can, complianceFrameworkAvailable, Visibility } from '../lib/policy.ts';
import { assertAvatar, storeAvatar } from '../uploads/avatars.ts';
import { changesFromAttributes, preparePolicy, storePolicy } from '../container-expiration-policies/prepare.ts';
import { setComplianceFramework } from '../compliance-frameworks/statements.ts';
import type { UpdateProjectInput } from './schemas.ts';
import { settingsChange } from './settings.ts';
import { assertVisibilityAllowed } from '../application-settings/service.ts';
import { reload, findProject, projectFacts } from './service.ts';
import { pathTaken, rethrowTaken, checkVisibility } from './placement.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function updateProject({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof UpdateProjectInput>>) {
  const view = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:update', projectFacts(view));
  const movesHead = input.default_branch !== undefined && !view.repository.empty && input.default_branch !== view.repository.defaultBranch;
  // Projects::UpdateService#validate! runs Project#change_head before anything is saved: a branch the repository
  // lacks is the model's base error, and nothing of the request is applied.
  if (movesHead && (await findRef(ctx.db, view.project.id, `refs/heads/${input.default_branch}`)) === undefined) {
    throw validationFailed({ base: [`Could not change HEAD: branch '${input.default_branch}' does not exist`] });
  }
  const values: Parameters<typeof q.updateProject>[2] = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.description !== undefined) values.description = input.description;
  if (input.default_branch !== undefined) values.defaultBranch = input.default_branch;
  if (input.merge_method !== undefined) values.mergeMethod = input.merge_method;
  if (input.remove_source_branch_after_merge !== undefined) values.removeSourceBranchAfterMerge = input.remove_source_branch_after_merge;
  if (input.only_allow_merge_if_all_discussions_are_resolved !== undefined)
    values.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  if (input.only_allow_merge_if_pipeline_succeeds !== undefined) values.onlyAllowMergeIfPipelineSucceeds = input.only_allow_merge_if_pipeline_succeeds;
  if (input.visibility !== undefined) {
    values.visibilityLevel = Visibility[input.visibility];
    checkVisibility(values.visibilityLevel, view.namespace);
    if (values.visibilityLevel !== view.project.visibilityLevel) await assertVisibilityAllowed(ctx, values.visibilityLevel);
  }
  const change = await settingsChange(input, ctx.config.instanceTier, view.project);
  Object.assign(values, change.columns);
  assertAvatar(input.avatar);
  // Nested attributes: the policy is validated with the project (nothing is written when either is invalid) and
  // saved in the same transaction.
  const attrs = input.container_expiration_policy_attributes;
  const policy = attrs ? preparePolicy(view, changesFromAttributes(attrs), 'container_expiration_policy.') : undefined;
  // EE's compliance framework: set by owners and administrators where licensed; for anyone else (or unlicensed) the
  // parameter is dropped without a word, as Projects::UpdateService does.
  const framework = input.compliance_framework_setting?.framework;
  const setFramework =
    framework !== undefined &&
    complianceFrameworkAvailable(ctx.config.instanceTier) &&
    can(ctx.actor, 'project:admin_compliance_framework', projectFacts(view));
  const renamed = input.path !== undefined && input.path.toLowerCase() !== view.project.path.toLowerCase();
  if (input.path !== undefined) {
    values.path = input.path;
    values.pathWithNamespace = `${view.namespace.fullPath}/${input.path}`;
  }
  try {
    if (renamed || input.avatar || policy || setFramework) {
      await ctx.transaction(async (tx) => {
        if (renamed) {
          // The namespace as it is now, held against a delete that would move its paths (and leave ours behind).
          const namespacePath = await lockLiveNamespace(tx, view.namespace.id);
          if (namespacePath === undefined) throw notFound('Project');
          values.pathWithNamespace = `${namespacePath}/${input.path}`;
          await lockFullPath(tx, values.pathWithNamespace);
          if (await fullPathTaken(tx, values.pathWithNamespace!, { projectId: view.project.id })) throw pathTaken();
        }
        await q.updateProject(tx, view.project.id, values, change.settings);
        if (input.avatar) await storeAvatar(tx, { kind: 'project', id: view.project.id }, input.avatar);
        if (policy) await storePolicy(tx, view.project.id, policy);
        if (setFramework) await setComplianceFramework(tx, view.project.id, framework || null);
      });
    } else await q.updateProject(ctx.db, view.project.id, values, change.settings);
  } catch (error) {
    rethrowTaken(error);
  }
  // The repository's HEAD (what the entity's default_branch shows) moves to the branch checked above.
  if (movesHead) await setDefaultBranchQuery(ctx.db, view.project.id, input.default_branch!);
  return reload(ctx, view.project.id);
}
