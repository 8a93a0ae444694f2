// Snippets::CreateService: a personal or project snippet with its files, in one transaction.
import * as q from '../../db/queries/snippets.ts';
import { userAgentDetailStatements } from '../user-agent-details/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import type { CreateSnippetParams, SnippetView } from './schemas.ts';
import type { SnippetOwner } from './service.ts';
import { serviceError, INVALID_ACTIONS, modelErrors, assertUniquePaths, level, applyActions, type FileAction } from './rules.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/**
 * Snippets::CreateService. `actions` are snippet_actions (GraphQL's blobActions): only `create` actions with content
 * are valid on creation (else `Snippet actions have invalid data`, before any model validation); the first names the
 * snippet's file_name and content, a create without a path gets `snippetfileN.txt`.
 */
export async function createSnippet({
  ctx,
  input,
}: Verb<{ owner: SnippetOwner; params: CreateSnippetParams & { actions?: readonly FileAction[] | undefined } }>): Promise<SnippetView> {
  const user = requireUser(ctx);
  let project: ProjectView | null = null;
  if (input.owner.kind === 'project') {
    project = await findProject(ctx, input.owner.ref);
    assertCan(ctx.actor, 'project:create_snippet', projectFacts(project));
  } else {
    assertCan(ctx.actor, 'user:create_snippet', { kind: 'user', id: user.id, state: user.state });
  }
  const p = input.params;
  let files: q.SnippetFile[];
  if (p.actions?.length) {
    if (p.actions.some((a) => a.action !== 'create' || !a.content)) throw serviceError(INVALID_ACTIONS);
    files = applyActions([], p.actions, 'creating');
  } else files = p.files ? p.files.map((f) => ({ path: f.file_path, content: f.content })) : [{ path: p.file_name ?? '', content: p.content ?? '' }];
  // Snippet does not strip its title (no StripAttribute), so it is kept as given.
  const title = p.title;
  const errors = modelErrors(title, files[0]?.path, files[0]?.content ?? '');
  if (errors.length) throw serviceFailed(errors);
  assertUniquePaths(files, 'creating');
  // Personal snippets are private unless told otherwise; project snippets always name their visibility.
  const visibilityLevel = level(p.visibility ?? 'private');
  const snippet = await ctx.transaction(async (tx) => {
    const created = await q.insertSnippet(
      tx,
      {
        type: project ? 'ProjectSnippet' : 'PersonalSnippet',
        projectId: project?.project.id ?? null,
        authorId: user.id,
        title,
        description: p.description ?? null,
        visibilityLevel,
      },
      files,
    );
    for (const statement of userAgentDetailStatements(tx, ctx, { snippetId: created.id })) await statement;
    return created;
  });
  return { snippet, author: user, projectPath: project?.project.pathWithNamespace ?? null, files: files.map((f) => f.path) };
}
