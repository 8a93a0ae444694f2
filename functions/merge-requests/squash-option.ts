// The target project's squash_option (13.x): whether a merge squashes, and a new merge request's default.
import { projectSettings } from '../projects/settings.ts';
import type { ProjectRow } from '../../db/schema/index.ts';

/** MergeRequest#squash_on_merge?: `always` and `never` decide; otherwise the merge request's (or the merge's) choice. */
export function squashOnMerge(target: Pick<ProjectRow, 'settings'>, requested: boolean): boolean {
  const option = projectSettings(target).squash_option;
  return option === 'always' ? true : option === 'never' ? false : requested;
}

/** A new merge request's `squash` when the request does not say: on where the project's option is `default_on`. */
export const squashByDefault = (target: Pick<ProjectRow, 'settings'>) => projectSettings(target).squash_option === 'default_on';
