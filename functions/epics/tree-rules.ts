// The epic tree's rules (Epic#validate_parent, #validate_confidential_parent; Epic::MAX_HIERARCHY_DEPTH), applied to
// what was read under the tree lock (db/queries/epics/links.ts) by every write that sets a parent: linking a child
// (epic-links.ts) and creating an epic with a parent (service.ts).
import type { TreeFacts } from '../../db/queries/epics/links.ts';
import type { FieldErrors } from '../lib/errors.ts';

export const MAX_HIERARCHY_DEPTH = 5;
export const CONFIDENTIAL_PARENT = 'A non-confidential epic cannot be assigned to a confidential parent epic';

/** Epic#validate_parent and #validate_confidential_parent for `child` under `parent`, as read under the lock. */
export function parentErrors(child: TreeFacts, parent: TreeFacts): string[] {
  const errors: string[] = [];
  if (child.id === parent.id) errors.push('This epic cannot be added. An epic cannot be added to itself.');
  else if (child.parentId === parent.id) errors.push('This epic cannot be added. It is already assigned to the parent epic.');
  else if (parent.baseAndAncestors.includes(child.id)) errors.push('This epic cannot be added. It is already an ancestor of the parent epic.');
  else if (child.maxDescendantsDepth + parent.baseAndAncestors.length >= MAX_HIERARCHY_DEPTH)
    errors.push(`This epic cannot be added. One or more epics would exceed the maximum depth (${MAX_HIERARCHY_DEPTH}) from its most distant ancestor.`);
  // (The child comes from the parent's group or a subgroup, so "An epic must belong to the same group or subgroup as
  // its parent epic." cannot arise through these endpoints.)
  if (!child.confidential && parent.confidential) errors.push(CONFIDENTIAL_PARENT);
  return errors;
}

/** A new epic's facts (no id yet, no children) for parentErrors. */
export const newEpicFacts = (groupId: number, confidential: boolean): TreeFacts => ({
  id: -1,
  groupId,
  parentId: null,
  confidential,
  baseAndAncestors: [],
  maxDescendantsDepth: 1,
});

/** The model's errors as fields: depth and cycle problems on `parent`, confidentiality on `confidential`. */
export function parentFieldErrors(errors: readonly string[]): FieldErrors {
  const depth = errors.filter((e) => e !== CONFIDENTIAL_PARENT);
  return { ...(depth.length ? { parent: depth } : {}), ...(errors.includes(CONFIDENTIAL_PARENT) ? { confidential: [CONFIDENTIAL_PARENT] } : {}) };
}
