// Inputs and GitLab's response shapes of the CI Lint API: POST /ci/lint (13.6 lib/api/lint.rb) and
// GET /projects/:id/ci/lint (Entities::Ci::Lint::Result, added after 13.6 and built here in its first shape).
import * as z from 'zod/mini';
import { bool, schema } from '../lib/validate.ts';
import type { LintResult } from './lint.ts';

/** Grape's `type: String`: any text (JSON numbers as their digits). */
const anyString = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
    z.string(),
  );

export const LintInput = schema(() => z.object({ content: anyString(), include_merged_yaml: z.optional(bool()) }));
export const ProjectLintInput = schema(() => z.object({ dry_run: z.optional(bool()) }));

/** 13.6's POST /ci/lint: only the first error is reported; `merged_yaml` only when asked (null when invalid). */
export function toLintStatus(r: LintResult, includeMergedYaml: boolean) {
  const body: Record<string, unknown> = r.valid
    ? { status: 'valid', errors: [], warnings: r.warnings }
    : { status: 'invalid', errors: r.errors.slice(0, 1), warnings: r.warnings };
  if (includeMergedYaml) body.merged_yaml = r.mergedYaml;
  return body;
}

/** Entities::Ci::Lint::Result. */
export const toLintResult = (r: LintResult) => ({ valid: r.valid, errors: r.errors, warnings: r.warnings, merged_yaml: r.mergedYaml });
