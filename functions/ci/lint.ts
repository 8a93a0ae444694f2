// The lint verbs: a configuration text (POST /ci/lint) or a project's `.gitlab-ci.yml` at its default branch
// (GET /projects/:id/ci/lint, authorized as GitLab does it: `download_code`, so 404 for a project the caller cannot
// see and 403 for a guest of a private one). `dry_run` also plans a push pipeline on the default branch, which
// adds the errors pipeline creation would report (needs on jobs the rules left out, workflow rules).
import type { RequestContext } from '../lib/context.ts';
import { isDomainError } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { findProject } from '../projects/service.ts';
import { getFile } from '../repositories/reads/files.ts';
import { templateContent } from '../templates/catalog.ts';
import { parseCiConfig, type ParseResult } from './config/index.ts';
import { mergedYaml } from './config/merged-yaml.ts';
import { plan } from './plan.ts';
import { CI_CONFIG_PATH } from './config-path.ts';

export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  mergedYaml: string | null;
}

const readTemplate = (name: string) => templateContent('gitlab_ci_ymls', name);
const utf8 = new TextDecoder();

/** No commit (an empty repository) or no file there: linted as empty content, as GitLab lints a nil blob. */
const isMissingFile = (e: unknown) => isDomainError(e, 'not_found') && (e.problem.resource === 'Commit' || e.problem.resource === 'File');

function toResult(parsed: ParseResult): LintResult {
  return parsed.ok
    ? { valid: true, errors: [], warnings: parsed.warnings, mergedYaml: mergedYaml(parsed.config.merged) }
    : { valid: false, errors: parsed.errors, warnings: parsed.warnings, mergedYaml: null };
}

/** POST /ci/lint: no project context (a `local` include has no project to read from). */
export async function lintContent({ input }: { input: { content: string } }): Promise<LintResult> {
  return toResult(await parseCiConfig(input.content, { templates: readTemplate }));
}

export async function lintProjectConfig({ ctx, input }: { ctx: RequestContext; input: { project: Ref | null; dryRun: boolean } }): Promise<LintResult> {
  let content = '';
  let commit: string | undefined;
  try {
    const file = await getFile({ ctx, input: { project: input.project, path: CI_CONFIG_PATH, ref: undefined } });
    content = utf8.decode(file.content);
    commit = file.commitOid;
  } catch (e) {
    if (!isMissingFile(e)) throw e;
  }
  // `include: local` reads the same commit as the file itself.
  const local = async (path: string) => {
    if (!commit) return null;
    try {
      return utf8.decode((await getFile({ ctx, input: { project: input.project, path, ref: commit } })).content);
    } catch (e) {
      if (isMissingFile(e)) return null;
      throw e;
    }
  };
  const parsed = await parseCiConfig(content, { templates: readTemplate, local });
  const result = toResult(parsed);
  if (!input.dryRun || !parsed.ok) return result;
  const ref = await defaultBranchOf(ctx, input.project);
  const planned = plan(parsed.config, { ref, tag: false, source: 'push', defaultBranch: ref });
  return planned.created ? result : { ...result, valid: false, errors: planned.errors };
}

async function defaultBranchOf(ctx: RequestContext, project: Ref | null): Promise<string> {
  const found = await findProject(ctx, project);
  return found.project.defaultBranch ?? 'master';
}
