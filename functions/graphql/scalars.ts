// The schema's scalars: Time, ISO8601Date, JSON, UntrustedRegexp, and the typed global id scalars.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isRealDate } from '../lib/dates.ts';
import { re2Error } from '../lib/untrusted-regexp.ts';
import { globalIdScalar } from './ids.ts';

const stringScalar = (name: string, description: string, check: (s: string) => boolean, message: (s: string) => string) => {
  const parse = (v: unknown) => {
    if (typeof v !== 'string' || !check(v)) throw new GraphQLError(message(String(v)));
    return v;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (v) => (v instanceof Date ? v.toISOString() : String(v)),
    parseValue: parse,
    parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
  });
};

export const scalars = {
  Time: stringScalar(
    'Time',
    'Time represented in ISO 8601',
    (s) => !Number.isNaN(Date.parse(s)),
    (s) => `${s} is not a valid ISO 8601 time`,
  ),
  ISO8601Date: stringScalar(
    'ISO8601Date',
    'An ISO 8601-encoded date',
    (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isRealDate(s),
    (s) => `${s} is not a valid ISO 8601 date`,
  ),
  // Types::UntrustedRegexp: an RE2 pattern; anything else is a coercion error with RE2's reason.
  UntrustedRegexp: stringScalar(
    'UntrustedRegexp',
    'A regexp containing patterns sourced from user input',
    (s) => re2Error(s) === null,
    (s) => `${s} is an invalid regexp: ${re2Error(s)}`,
  ),
  JSON: new GraphQLScalarType({ name: 'JSON', description: 'Represents untyped JSON', serialize: (v) => v, parseValue: (v) => v }),
  UserID: globalIdScalar('UserID', ['User'], { bare: true }),
  ProjectID: globalIdScalar('ProjectID', ['Project'], { bare: true }),
  GroupID: globalIdScalar('GroupID', ['Group'], { bare: true }),
  IssueID: globalIdScalar('IssueID', ['Issue'], { bare: true }),
  NoteID: globalIdScalar('NoteID', ['Note', 'DiscussionNote', 'DiffNote'], { bare: true }),
  NoteableID: globalIdScalar('NoteableID', ['Issue', 'MergeRequest', 'ProjectSnippet', 'PersonalSnippet', 'Snippet', 'Epic', 'AlertManagement::Alert']),
  AwardableID: globalIdScalar('AwardableID', [
    'Issue',
    'MergeRequest',
    'Note',
    'DiscussionNote',
    'DiffNote',
    'ProjectSnippet',
    'PersonalSnippet',
    'Snippet',
    'Epic',
  ]),
  TodoableID: globalIdScalar('TodoableID', ['Issue', 'MergeRequest', 'Epic']),
  SnippetID: globalIdScalar('SnippetID', ['ProjectSnippet', 'PersonalSnippet', 'Snippet'], { bare: true }),
  LabelID: globalIdScalar('LabelID', ['ProjectLabel', 'GroupLabel', 'Label'], { bare: true }),
  IterationID: globalIdScalar('IterationID', ['Iteration'], { bare: true }),
  MilestoneID: globalIdScalar('MilestoneID', ['Milestone'], { bare: true }),
  DiscussionID: globalIdScalar('DiscussionID', ['Discussion'], { bare: true }),
  TodoID: globalIdScalar('TodoID', ['Todo'], { bare: true }),
  BoardID: globalIdScalar('BoardID', ['Board'], { bare: true }),
  ListID: globalIdScalar('ListID', ['List'], { bare: true }),
  EpicID: globalIdScalar('EpicID', ['Epic'], { bare: true }),
  Date: stringScalar(
    'Date',
    'Date represented in ISO 8601',
    (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isRealDate(s),
    (s) => `${s} is not a valid ISO 8601 date`,
  ),
  ClustersAgentID: globalIdScalar('ClustersAgentID', ['Clusters::Agent'], { bare: true }),
  ClustersAgentTokenID: globalIdScalar('ClustersAgentTokenID', ['Clusters::AgentToken'], { bare: true }),
  CiPipelineID: globalIdScalar('CiPipelineID', ['Ci::Pipeline'], { bare: true }),
  DastScannerProfileID: globalIdScalar('DastScannerProfileID', ['DastScannerProfile'], { bare: true }),
  DastSiteProfileID: globalIdScalar('DastSiteProfileID', ['DastSiteProfile'], { bare: true }),
  AlertManagementHttpIntegrationID: globalIdScalar('AlertManagementHttpIntegrationID', ['AlertManagement::HttpIntegration'], { bare: true }),
};
