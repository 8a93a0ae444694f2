// The namespaces API's input and GitLab 13.6's Entities::Namespace.
import type { NamespaceListView } from '../../db/queries/namespaces.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, schema, str } from '../lib/validate.ts';
import { toNamespaceBasic } from '../projects/schemas.ts';

export const ListNamespacesInput = schema(() => z.object({ ...paginationParams(), search: z.optional(str(255)), owned_only: z.optional(bool()) }));

/** Entities::Namespace: NamespaceBasic, and a group's members_count_with_descendants for those who administer it. */
export function toNamespace(v: NamespaceListView, config: Config, o: { membersCount: boolean }) {
  return { ...toNamespaceBasic(v.namespace, config), ...(o.membersCount ? { members_count_with_descendants: v.membersCountWithDescendants } : {}) };
}
