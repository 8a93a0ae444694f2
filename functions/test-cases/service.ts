// Creating a test case (GitLab 13.6's Mutations::QualityManagement::TestCases::Create with
// QualityManagement::TestCases::CreateService): an issue of type `test_case`, Ultimate only, written by the issues
// service's create verb (one batch: iid, row, labels, event, notification, resource events, mention to-dos).
import type { RequestContext } from '../lib/context.ts';
import { createIssue } from '../issues/create.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface CreateTestCaseParams {
  projectPath: string;
  title: string;
  description?: string | null | undefined;
  /** Label ids already parsed; ones not available to the project are dropped. */
  labelIds?: readonly number[] | undefined;
}

export async function createTestCase({ ctx, input }: Verb<CreateTestCaseParams>) {
  // The issue's validations (issuables/validation.ts) are the create verb's: their messages become the payload's
  // errors once it has decided who may (reporters and above) and whether the instance's tier has test cases.
  const testCase = { labelIds: input.labelIds ?? [] };
  return createIssue({
    ctx,
    input: { project: { path: input.projectPath }, params: { title: input.title, description: input.description ?? null }, testCase },
  });
}
