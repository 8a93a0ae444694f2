// Snippets::UpdateService: title, description, visibility, and the files (one file's content and name, or `files`
// actions) replaced under the snippet's lock.
import * as q from '../../db/queries/snippets.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import type { SnippetView, UpdateSnippetParams } from './schemas.ts';
import { type SnippetOwner, load, snippetNotFound } from './service.ts';
import { serviceError, modelErrors, assertUniquePaths, level, applyActions } from './rules.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function updateSnippet({ ctx, input }: Verb<{ owner: SnippetOwner; id: number | null; params: UpdateSnippetParams }>): Promise<SnippetView> {
  requireUser(ctx);
  const { view, facts } = await load(ctx, input.owner, input.id);
  assertCan(ctx.actor, 'snippet:update', facts);
  const p = input.params;
  // Helpers::SnippetsHelpers#validate_params_for_multiple_files
  if ((p.content !== undefined || p.file_name !== undefined) && view.files.length > 1) {
    throw serviceError('To update Snippets with multiple files, you must use the `files` parameter');
  }
  const title = p.title;
  const fileName = p.file_name;
  const errors = modelErrors(title, fileName);
  if (errors.length) throw serviceFailed(errors);
  const changes: q.SnippetChanges = {
    title,
    description: p.description,
    visibilityLevel: p.visibility !== undefined ? level(p.visibility) : undefined,
  };
  const id = view.snippet.id;
  const touchesFiles = p.files !== undefined || p.content !== undefined || fileName !== undefined;
  if (!touchesFiles) {
    const snippet = await q.updateSnippet(ctx.db, id, changes);
    if (!snippet) throw snippetNotFound();
    return { ...view, snippet };
  }
  return ctx.transaction(async (tx) => {
    const current = await q.lockSnippetFiles(tx, id);
    let files: q.SnippetFile[];
    if (p.files !== undefined) files = applyActions(current, p.files);
    else {
      const first = current[0] ?? { path: '', content: '' };
      files = [{ path: fileName || first.path, content: p.content ?? first.content }, ...current.slice(1)];
    }
    const tooLong = modelErrors(undefined, files[0]!.path);
    if (tooLong.length) throw serviceFailed(tooLong);
    assertUniquePaths(files, 'updating');
    const snippet = await q.updateSnippet(tx, id, changes);
    if (!snippet) throw snippetNotFound();
    await q.replaceSnippetFiles(tx, id, files);
    return { ...view, snippet, files: files.map((f) => f.path) };
  });
}
