// Label inputs (lib/api/labels.rb, group_labels.rb, helpers/label_helpers.rb) and GitLab's label entities
// (Entities::LabelBasic < Label < ProjectLabel/GroupLabel).
import type { LabelRow } from '../../db/schema/index.ts';
import type { LabelWithCounts } from '../../db/queries/labels/listing.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { atLeastOneOf, bool, exactlyOneOf, int, schema, str, text } from '../lib/validate.ts';
import { textColorFor } from './colors.ts';
import { renderPlainText } from '../lib/format.ts';

/** Titles are checked against the model's 255 in the service (`title` errors); this only bounds the request. */
const title = () => str(10_000);
const description = () => z.nullable(text(65_535));
/** `priority`: an integer, or blank/null to unprioritize (allow_blank). */
const priority = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' ? null : v)),
    z.nullable(int()),
  );

export const ListLabelsInput = schema(() =>
  z.object({
    ...paginationParams(),
    with_counts: z.optional(bool()),
    include_ancestor_groups: z.optional(bool()),
    /** Group labels only; accepted as GitLab does (descendants are not listed). */
    include_descendant_groups: z.optional(bool()),
    only_group_labels: z.optional(bool()),
    search: z.optional(str(255)),
  }),
);

export const GetLabelInput = schema(() =>
  z.object({
    include_ancestor_groups: z.optional(bool()),
  }),
);

export const CreateLabelInput = schema(() =>
  z.object({
    name: title(),
    color: str(255),
    description: z.optional(description()),
    priority: z.optional(priority()),
  }),
);

/** What an update may change (`label_update_params`; priority for project labels only), in Grape's order. */
const groupUpdateFields = () => ({ new_name: z.optional(title()), color: z.optional(str(255)), description: z.optional(description()) });
const projectUpdateFields = () => ({ ...groupUpdateFields(), priority: z.optional(priority()) });
/** Grape's at_least_one_of over them. */
const someChange = (fields: Record<string, unknown>) => atLeastOneOf(Object.keys(fields));

export const UpdateProjectLabelInput = schema(() => {
  const fields = projectUpdateFields();
  return z.object(fields).check(someChange(fields));
});
export const UpdateGroupLabelInput = schema(() => {
  const fields = groupUpdateFields();
  return z.object(fields).check(someChange(fields));
});

/**
 * The collection form GitLab 13.x still serves (deprecated in 12.4; python-gitlab's `label.save()` sends it):
 * `PUT .../labels` naming the label in the body by `label_id` or `name`, after the update fields (Grape's order).
 */
const byIdOrName = () => ({ label_id: z.optional(int()), name: z.optional(title()) });
export const UpdateProjectLabelByBodyInput = schema(() => {
  const fields = projectUpdateFields();
  return z.object({ ...byIdOrName(), ...fields }).check(someChange(fields), exactlyOneOf(['label_id', 'name']));
});
export const UpdateGroupLabelByBodyInput = schema(() => {
  const fields = groupUpdateFields();
  return z.object({ ...byIdOrName(), ...fields }).check(someChange(fields), exactlyOneOf(['label_id', 'name']));
});
/** `DELETE .../labels`: projects take `label_id` or `name`, groups `name` only. */
export const DeleteProjectLabelByBodyInput = schema(() => z.object(byIdOrName()).check(exactlyOneOf(['label_id', 'name'])));
export const DeleteGroupLabelByBodyInput = schema(() => z.object({ name: title() }));

/** `:label_id` in paths: an id or a title (Hono has percent-decoded it). */
export const LabelPath = () => ({ label_id: z.string() });

/** Entities::LabelBasic: a label's own fields (also an issue's `labels` with `with_labels_details=true`). */
export const toLabelBasic = (l: Pick<LabelRow, 'id' | 'title' | 'color' | 'description'>) => ({
  id: l.id,
  name: l.title,
  color: l.color,
  description: l.description,
  description_html: renderPlainText(l.description),
  text_color: textColorFor(l.color),
});

/** Entities::Label (LabelBasic and more); counts only when listed `with_counts`. */
function toLabel(row: LabelWithCounts) {
  return {
    ...toLabelBasic(row.label),
    ...(row.openIssuesCount !== undefined
      ? { open_issues_count: row.openIssuesCount, closed_issues_count: row.closedIssuesCount ?? 0, open_merge_requests_count: row.openMergeRequestsCount ?? 0 }
      : {}),
    // Label#subscribed?(current_user, parent): the caller's subscription from this project (or the group level).
    subscribed: row.subscribed === true,
  };
}

/** Entities::ProjectLabel: a label seen from a project (its own or an ancestor group's). */
export function toProjectLabel(row: LabelWithCounts | LabelRow) {
  const r = 'label' in row ? row : { label: row };
  return { ...toLabel(r), priority: r.label.projectId !== null ? r.label.priority : null, is_project_label: r.label.projectId !== null };
}

/** Entities::GroupLabel */
export function toGroupLabel(row: LabelWithCounts | LabelRow) {
  return toLabel('label' in row ? row : { label: row });
}
