// Iteration list parameters (ee/lib/api/iterations.rb, 13.6) and the Iteration entity (EE::API::Entities::Iteration).
import * as z from 'zod/mini';
import type { IterationView } from '../../db/queries/iterations.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { bool, oneOf, schema, str } from '../lib/validate.ts';

export const ListIterationsInput = schema(() =>
  z.object({
    ...paginationParams(),
    state: z._default(oneOf(['opened', 'upcoming', 'started', 'closed', 'all']), 'all'),
    search: z.optional(str(255)),
    include_ancestors: z._default(bool(), true),
  }),
);

/** The model's state_enum, which the REST entity exposes as `state`. */
const STATE_ENUM = { upcoming: 1, started: 2, closed: 3 } as const;

/** Gitlab::UrlBuilder for an iteration: the group's (or project's) iterations page, by id. */
export const iterationWebPath = (v: IterationView) =>
  v.iteration.groupId !== null ? `/groups/${v.groupPath}/-/iterations/${v.iteration.id}` : `/${v.projectPath}/-/iterations/${v.iteration.id}`;

export function toIteration(v: IterationView, config: Config) {
  const i = v.iteration;
  return {
    id: i.id,
    iid: i.iid,
    ...(i.projectId !== null ? { project_id: i.projectId } : {}),
    ...(i.groupId !== null ? { group_id: i.groupId } : {}),
    title: i.title,
    description: i.description,
    state: STATE_ENUM[v.state],
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    start_date: i.startDate,
    due_date: i.dueDate,
    web_url: `${config.publicUrl}${iterationWebPath(v)}`,
  };
}
