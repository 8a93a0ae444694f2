// Badge#rendered_link_url / rendered_image_url (GitLab 13.6): the placeholders %{project_path}, %{project_id},
// %{default_branch} and %{commit_sha} replaced with the project's values; without a project (a group's own list)
// the URLs are shown as stored. Pure.
import { externalUrlErrors } from '../environments/names.ts';

export interface RenderContext {
  projectPath: string;
  projectId: number;
  defaultBranch: string | null;
  commitSha: string | null;
}

const PLACEHOLDERS = /%\{(project_path|project_id|default_branch|commit_sha)\}/g;

/** Replaces the placeholders it has a value for; the others stay as they are (Gitlab::StringPlaceholderReplacer). */
export function renderUrl(url: string, project: RenderContext | null): string {
  if (!project) return url;
  const values: Record<string, string | null> = {
    project_path: project.projectPath,
    project_id: String(project.projectId),
    default_branch: project.defaultBranch,
    commit_sha: project.commitSha,
  };
  return url.replace(PLACEHOLDERS, (whole, key: string) => values[key] ?? whole);
}

/** Badge's `addressable_url` validation, on the URL with its placeholders filled by sample values. */
export function badgeUrlErrors(url: string): string[] {
  return externalUrlErrors(url.replace(PLACEHOLDERS, 'x'));
}
