// Creating a test case (GitLab 13.6's Mutations::QualityManagement::TestCases::Create with
// QualityManagement::TestCases::CreateService): an issue of type `test_case`, Ultimate only, written by the issues
// service's create verb (one batch: iid, row, labels, event, notification, resource events, mention to-dos).
import type { RequestContext } from '../lib/context.ts';
import { toSentence } from '../lib/format.ts';
import { createIssue } from '../issues/service.ts';
import { DESCRIPTION_MAX } from '../issues/schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface CreateTestCaseParams {
  projectPath: string;
  title: string;
  description?: string | null | undefined;
  /** Label ids already parsed; ones not available to the project are dropped. */
  labelIds?: readonly number[] | undefined;
}

/** Issuable::TITLE_LENGTH_MAX (the description's limit is the issues domain's). */
const TITLE_MAX = 255;

/** Issue's validations as one sentence (`errors.full_messages.to_sentence`), or null when valid. */
function issueErrors(title: string, description: string | null): string | null {
  const messages: string[] = [];
  if (!title) messages.push("Title can't be blank");
  else if (title.length > TITLE_MAX) messages.push(`Title is too long (maximum is ${TITLE_MAX} characters)`);
  if (description && description.length > DESCRIPTION_MAX) messages.push(`Description is too long (maximum is ${DESCRIPTION_MAX} characters)`);
  if (!messages.length) return null;
  return toSentence(messages);
}

export async function createTestCase({ ctx, input }: Verb<CreateTestCaseParams>) {
  // Issuable's strip_attributes :title; the model's messages become the payload's errors once the issues service has
  // decided who may (reporters and above) and whether the instance's tier has test cases.
  const title = input.title.trim();
  const description = input.description ?? null;
  const invalid = issueErrors(title, description);
  const testCase = { labelIds: input.labelIds ?? [], invalid };
  return createIssue({ ctx, input: { project: { path: input.projectPath }, params: { title, description }, testCase } });
}
