// Requirement inputs and their validation in GitLab's words (RequirementsManagement::Requirement: `strip_attributes
// :title`, title presence and length, the description's length CHECK), and the GraphQL enum mappings.
import type { RequirementState, TestReportState } from '../../db/queries/requirements.ts';
import type { FieldErrors } from '../lib/errors.ts';

export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 10_000;

export interface RequirementParams {
  title?: string | undefined;
  description?: string | null | undefined;
  state?: RequirementState | undefined;
}

/** strip_attributes: the title is saved without its surrounding whitespace. */
export const stripTitle = (title: string | undefined) => title?.trim();

/** The model's errors for these values (empty when valid); `title` is required on create only. */
export function requirementErrors(p: RequirementParams, creating: boolean): FieldErrors {
  const errors: Record<string, string[]> = {};
  if (p.title !== undefined || creating) {
    if (!p.title) errors.title = ["can't be blank"];
    else if (p.title.length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`];
  }
  if (p.description && p.description.length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`];
  return errors;
}

export const REQUIREMENT_STATES = { OPENED: 'opened', ARCHIVED: 'archived' } as const satisfies Record<string, RequirementState>;
export const TEST_REPORT_STATES = { PASSED: 'passed', FAILED: 'failed' } as const satisfies Record<string, TestReportState>;
export const requirementStateName = (s: RequirementState) => (s === 'opened' ? 'OPENED' : 'ARCHIVED');
export const testReportStateName = (s: TestReportState) => (s === 'passed' ? 'PASSED' : 'FAILED');
