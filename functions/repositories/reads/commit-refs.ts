// GET repository/commits/:sha/refs (GitLab 13.6 commits.rb): the branches, then the tags, that contain the commit
// (`git for-each-ref --contains`: the commit is the ref's or one of its ancestors), as Entities::BasicRef.
import * as z from 'zod/mini';
import { refsContaining } from '../../../db/queries/repositories/containing.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { paginationParams } from '../../lib/pagination.ts';
import { oneOf, schema, type Output } from '../../lib/validate.ts';
import { projectFor, type RepositoryProject } from '../service.ts';

export const CommitRefsInput = schema(() =>
  z.object({
    type: z._default(oneOf(['branch', 'tag', 'all']), 'all'),
    ...paginationParams(),
  }),
);
export type CommitRefsParams = Output<typeof CommitRefsInput>;

const PREFIXES = { branch: ['refs/heads/'], tag: ['refs/tags/'], all: ['refs/heads/', 'refs/tags/'] } as const;

/** `before { authorize! :download_code, user_project }`: routes call it ahead of reading parameters, as Grape does. */
export const commitRefsProject = (ctx: RequestContext, ref: Ref | null) => projectFor(ctx, ref, 'project:download_code');

/** 404 `Commit Not Found` for a revision that names no commit (`user_project.commit(params[:sha])`). */
export async function commitRefs({ ctx, input }: { ctx: RequestContext; input: { found: RepositoryProject; sha: string; type: CommitRefsParams['type'] } }) {
  const result = await refsContaining(ctx.db, { projectId: input.found.context.projectId, rev: input.sha, prefixes: PREFIXES[input.type] });
  if (!result) throw notFound('Commit');
  return result.refs.map((name) =>
    name.startsWith('refs/heads/')
      ? { type: 'branch' as const, name: name.slice('refs/heads/'.length) }
      : { type: 'tag' as const, name: name.slice('refs/tags/'.length) },
  );
}

/** Entities::BasicRef. */
export const toBasicRef = (r: { type: 'branch' | 'tag'; name: string }) => ({ type: r.type, name: r.name });
