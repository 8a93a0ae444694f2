// The served schema (introspected over HTTP) against the spec's tables (../shared/spec/graphql.md) for what is built
// so far: every type, field, argument, enum value and input field named there, with its exact type (nullability and
// lists included). A name the spec gives that the schema lacks, or a type that differs, fails here.
import {
  buildClientSchema,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  type GraphQLSchema,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { gql } from './helpers.ts';

let schema: GraphQLSchema;
beforeAll(async () => {
  const res = await gql(getIntrospectionQuery());
  expect(res.body.errors).toBeUndefined();
  schema = buildClientSchema(res.body.data);
});

const PAGING = { after: 'String', before: 'String', first: 'Int', last: 'Int' };

/** Output types: field -> type, or [type, args]. */
const OBJECTS: Record<string, Record<string, string | [string, Record<string, string>]>> = {
  AccessLevel: { integerValue: 'Int', stringValue: 'AccessLevelEnum' },
  AlertManagementAlert: {
    assignees: ['UserConnection', PAGING],
    createdAt: 'Time',
    description: 'String',
    details: 'JSON',
    detailsUrl: 'String!',
    discussions: ['DiscussionConnection!', PAGING],
    endedAt: 'Time',
    eventCount: 'Int',
    hosts: '[String!]',
    iid: 'ID!',
    issueIid: 'ID',
    metricsDashboardUrl: 'String',
    monitoringTool: 'String',
    notes: ['NoteConnection!', PAGING],
    metricsAlert: 'MetricsAlert',
    runbook: 'String',
    service: 'String',
    severity: 'AlertManagementSeverity',
    startedAt: 'Time',
    status: 'AlertManagementStatus',
    title: 'String',
    todos: [
      'TodoConnection',
      { ...PAGING, action: '[TodoActionEnum!]', authorId: '[ID!]', groupId: '[ID!]', projectId: '[ID!]', state: '[TodoStateEnum!]', type: '[TodoTargetEnum!]' },
    ],
    updatedAt: 'Time',
  },
  AlertManagementAlertStatusCountsType: { acknowledged: 'Int', all: 'Int', ignored: 'Int', open: 'Int', resolved: 'Int', triggered: 'Int' },
  AwardEmoji: { description: 'String!', emoji: 'String!', name: 'String!', unicode: 'String!', unicodeVersion: 'String!', user: 'User!' },
  BaseService: { active: 'Boolean', type: 'String' },
  // The last of the spec's BoardEpic fields (the rest are checked through the epics tests).
  BoardEpic: { healthStatus: 'EpicHealthStatus', participants: ['UserConnection', PAGING] },
  EpicHealthStatus: { issuesAtRisk: 'Int', issuesNeedingAttention: 'Int', issuesOnTrack: 'Int' },
  Blob: {
    flatPath: 'String!',
    id: 'ID!',
    lfsOid: 'String',
    mode: 'String',
    name: 'String!',
    path: 'String!',
    sha: 'String!',
    type: 'EntryType!',
    webPath: 'String',
    webUrl: 'String',
  },
  CurrentUserTodos: { currentUserTodos: ['TodoConnection!', { ...PAGING, state: 'TodoStateEnum' }] },
  DeleteJobsResponse: { completed: 'Boolean', deletedJobs: 'Int', queueSize: 'Int' },
  ClusterAgent: { createdAt: 'Time', id: 'ID!', name: 'String', project: 'Project', tokens: ['ClusterAgentTokenConnection', PAGING], updatedAt: 'Time' },
  ClusterAgentToken: { clusterAgent: 'ClusterAgent', createdAt: 'Time', id: 'ClustersAgentTokenID!' },
  ClusterAgentConnection: { count: 'Int!' },
  ContainerExpirationPolicy: {
    cadence: 'ContainerExpirationPolicyCadenceEnum!',
    createdAt: 'Time!',
    enabled: 'Boolean!',
    keepN: 'ContainerExpirationPolicyKeepEnum',
    nameRegex: 'UntrustedRegexp',
    nameRegexKeep: 'UntrustedRegexp',
    nextRunAt: 'Time',
    olderThan: 'ContainerExpirationPolicyOlderThanEnum',
    updatedAt: 'Time!',
  },
  PageInfo: { endCursor: 'String', hasNextPage: 'Boolean!', hasPreviousPage: 'Boolean!', startCursor: 'String' },
};

const ENUMS: Record<string, string[]> = {
  AccessLevelEnum: ['DEVELOPER', 'GUEST', 'MAINTAINER', 'NO_ACCESS', 'OWNER', 'REPORTER'],
  AlertManagementSeverity: ['CRITICAL', 'HIGH', 'INFO', 'LOW', 'MEDIUM', 'UNKNOWN'],
  AlertManagementStatus: ['ACKNOWLEDGED', 'IGNORED', 'RESOLVED', 'TRIGGERED'],
  AlertManagementAlertSort: [
    'CREATED_ASC',
    'CREATED_DESC',
    'CREATED_TIME_ASC',
    'CREATED_TIME_DESC',
    'ENDED_AT_ASC',
    'ENDED_AT_DESC',
    'EVENT_COUNT_ASC',
    'EVENT_COUNT_DESC',
    'SEVERITY_ASC',
    'SEVERITY_DESC',
    'STARTED_AT_ASC',
    'STARTED_AT_DESC',
    'STATUS_ASC',
    'STATUS_DESC',
    'UPDATED_ASC',
    'UPDATED_DESC',
    'UPDATED_TIME_ASC',
    'UPDATED_TIME_DESC',
    'created_asc',
    'created_desc',
    'updated_asc',
    'updated_desc',
  ],
  BlobViewersType: ['auxiliary', 'rich', 'simple'],
  CommitActionMode: ['CHMOD', 'CREATE', 'DELETE', 'MOVE', 'UPDATE'],
  CommitEncoding: ['BASE64', 'TEXT'],
  ContainerExpirationPolicyCadenceEnum: ['EVERY_DAY', 'EVERY_MONTH', 'EVERY_THREE_MONTHS', 'EVERY_TWO_WEEKS', 'EVERY_WEEK'],
  ContainerExpirationPolicyKeepEnum: ['FIFTY_TAGS', 'FIVE_TAGS', 'ONE_HUNDRED_TAGS', 'ONE_TAG', 'TEN_TAGS', 'TWENTY_FIVE_TAGS'],
  ContainerExpirationPolicyOlderThanEnum: ['FOURTEEN_DAYS', 'NINETY_DAYS', 'SEVEN_DAYS', 'THIRTY_DAYS'],
  DastScanTypeEnum: ['PASSIVE'],
};

const SCALARS = [
  'ID',
  'String',
  'Int',
  'Boolean',
  'Time',
  'ISO8601Date',
  'JSON',
  'BoardID',
  'CiPipelineID',
  'ClustersAgentID',
  'ClustersAgentTokenID',
  'UntrustedRegexp',
  'DastScannerProfileID',
  'DastSiteProfileID',
  'UserID',
  'LabelID',
  'MilestoneID',
];

const CLIENT_ID = { clientMutationId: 'String' };
const AWARD_INPUT = { awardableId: 'ID!', name: 'String!', ...CLIENT_ID };
const ALERT_PAYLOAD = { alert: 'AlertManagementAlert', issue: 'Issue', todo: 'Todo' };
/** Mutation inputs and their payloads' fields (every payload also has clientMutationId and errors). */
const MUTATIONS: Record<string, { field: string; input: Record<string, string>; payload: Record<string, string> }> = {
  AddAwardEmoji: { field: 'addAwardEmoji', input: AWARD_INPUT, payload: { awardEmoji: 'AwardEmoji' } },
  AlertSetAssignees: {
    field: 'alertSetAssignees',
    input: { assigneeUsernames: '[String!]!', iid: 'String!', operationMode: 'MutationOperationMode', projectPath: 'ID!', ...CLIENT_ID },
    payload: ALERT_PAYLOAD,
  },
  AlertTodoCreate: { field: 'alertTodoCreate', input: { iid: 'String!', projectPath: 'ID!', ...CLIENT_ID }, payload: ALERT_PAYLOAD },
  CreateAlertIssue: { field: 'createAlertIssue', input: { iid: 'String!', projectPath: 'ID!', ...CLIENT_ID }, payload: ALERT_PAYLOAD },
  AwardEmojiAdd: { field: 'awardEmojiAdd', input: AWARD_INPUT, payload: { awardEmoji: 'AwardEmoji' } },
  AwardEmojiRemove: { field: 'awardEmojiRemove', input: AWARD_INPUT, payload: { awardEmoji: 'AwardEmoji' } },
  AwardEmojiToggle: { field: 'awardEmojiToggle', input: AWARD_INPUT, payload: { awardEmoji: 'AwardEmoji', toggledOn: 'Boolean!' } },
  AdminBackgroundQueuesDeleteJobs: {
    field: 'adminBackgroundQueuesDeleteJobs',
    input: {
      queueName: 'String!',
      callerId: 'String',
      featureCategory: 'String',
      project: 'String',
      relatedClass: 'String',
      rootNamespace: 'String',
      subscriptionPlan: 'String',
      user: 'String',
      ...CLIENT_ID,
    },
    payload: { result: 'DeleteJobsResponse' },
  },
  AddProjectToSecurityDashboard: { field: 'addProjectToSecurityDashboard', input: { id: 'ID!', ...CLIENT_ID }, payload: { project: 'Project' } },
  BoardListUpdateLimitMetrics: {
    field: 'boardListUpdateLimitMetrics',
    input: { listId: 'ID!', limitMetric: 'ListLimitMetric', maxIssueCount: 'Int', maxIssueWeight: 'Int', ...CLIENT_ID },
    payload: { list: 'BoardList' },
  },
  CreateClusterAgent: { field: 'createClusterAgent', input: { name: 'String!', projectPath: 'ID!', ...CLIENT_ID }, payload: { clusterAgent: 'ClusterAgent' } },
  ClusterAgentDelete: { field: 'clusterAgentDelete', input: { id: 'ClustersAgentID!', ...CLIENT_ID }, payload: {} },
  ClusterAgentTokenCreate: {
    field: 'clusterAgentTokenCreate',
    input: { clusterAgentId: 'ClustersAgentID!', ...CLIENT_ID },
    payload: { secret: 'String', token: 'ClusterAgentToken' },
  },
  ClusterAgentTokenDelete: { field: 'clusterAgentTokenDelete', input: { id: 'ClustersAgentTokenID!', ...CLIENT_ID }, payload: {} },
  CreateNote: {
    field: 'createNote',
    input: { body: 'String!', noteableId: 'ID!', confidential: 'Boolean', discussionId: 'ID', ...CLIENT_ID },
    payload: { note: 'Note' },
  },
  CreateDiffNote: {
    field: 'createDiffNote',
    input: { body: 'String!', noteableId: 'ID!', position: 'DiffPositionInput!', confidential: 'Boolean', ...CLIENT_ID },
    payload: { note: 'Note' },
  },
  CreateImageDiffNote: {
    field: 'createImageDiffNote',
    input: { body: 'String!', noteableId: 'ID!', position: 'DiffImagePositionInput!', confidential: 'Boolean', ...CLIENT_ID },
    payload: { note: 'Note' },
  },
  CreateSnippet: {
    field: 'createSnippet',
    input: {
      title: 'String!',
      visibilityLevel: 'VisibilityLevelsEnum!',
      blobActions: '[SnippetBlobActionInputType!]',
      description: 'String',
      projectPath: 'ID',
      uploadedFiles: '[String!]',
      ...CLIENT_ID,
    },
    payload: { snippet: 'Snippet' },
  },
};

describe('the served schema against the spec', () => {
  it('scalars', () => {
    for (const name of SCALARS) expect(isScalarType(schema.getType(name)), name).toBe(true);
  });

  it('enums with exact values', () => {
    for (const [name, values] of Object.entries(ENUMS)) {
      const type = schema.getType(name);
      expect(isEnumType(type), name).toBe(true);
      if (isEnumType(type))
        expect(
          type
            .getValues()
            .map((v) => v.name)
            .sort(),
          name,
        ).toEqual([...values].sort());
    }
  });

  it('object types and interfaces: fields, arguments and their types', () => {
    for (const [name, fields] of Object.entries(OBJECTS)) {
      const type = schema.getType(name);
      expect(isObjectType(type) || isInterfaceType(type), name).toBe(true);
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const [field, spec] of Object.entries(fields)) {
        const [want, args] = typeof spec === 'string' ? [spec, {}] : spec;
        const f = type.getFields()[field];
        expect(f, `${name}.${field}`).toBeDefined();
        expect(String(f!.type), `${name}.${field}`).toBe(want);
        for (const [arg, argType] of Object.entries(args)) expect(String(f!.args.find((a) => a.name === arg)?.type), `${name}.${field}(${arg})`).toBe(argType);
      }
    }
    expect(schema.getType('Blob') && isObjectType(schema.getType('Blob')) && (schema.getType('Blob') as any).getInterfaces().map((i: any) => i.name)).toEqual([
      'Entry',
    ]);
    expect((schema.getType('BaseService') as any).getInterfaces().map((i: any) => i.name)).toEqual(['Service']);
    for (const i of ['Noteable', 'CurrentUserTodos', 'Entry', 'Service']) expect(isInterfaceType(schema.getType(i)), i).toBe(true);
    expect((schema.getType('AlertManagementAlert') as any).getInterfaces().map((i: any) => i.name)).toEqual(['Noteable']);
  });

  it('mutations: input fields and payload fields with their types', () => {
    const root = schema.getMutationType()!;
    for (const [name, m] of Object.entries(MUTATIONS)) {
      const field = root.getFields()[m.field];
      expect(field, m.field).toBeDefined();
      expect(String(field!.args.find((a) => a.name === 'input')?.type), m.field).toBe(`${name}Input!`);
      expect(String(field!.type), m.field).toBe(`${name}Payload`);
      const input = schema.getType(`${name}Input`);
      expect(isInputObjectType(input), `${name}Input`).toBe(true);
      if (isInputObjectType(input)) for (const [k, t] of Object.entries(m.input)) expect(String(input.getFields()[k]?.type), `${name}Input.${k}`).toBe(t);
      const payload = schema.getType(`${name}Payload`);
      expect(isObjectType(payload), `${name}Payload`).toBe(true);
      if (isObjectType(payload)) {
        for (const [k, t] of Object.entries({ ...m.payload, clientMutationId: 'String', errors: '[String!]!' })) {
          expect(String(payload.getFields()[k]?.type), `${name}Payload.${k}`).toBe(t);
        }
      }
    }
  });

  it('connections follow the convention: edges, nodes, pageInfo; edges with cursor and node', () => {
    for (const [name, type] of Object.entries(schema.getTypeMap())) {
      if (!name.endsWith('Connection') || !isObjectType(type)) continue;
      const node = name.slice(0, -'Connection'.length);
      const f = type.getFields();
      expect(String(f.edges?.type), `${name}.edges`).toBe(`[${node}Edge]`);
      expect(String(f.nodes?.type), `${name}.nodes`).toBe(`[${node}]`);
      expect(String(f.pageInfo?.type), `${name}.pageInfo`).toBe('PageInfo!');
      const edge = schema.getType(`${node}Edge`);
      expect(isObjectType(edge) && String(edge.getFields().cursor?.type), `${node}Edge.cursor`).toBe('String!');
      expect(isObjectType(edge) && String(edge.getFields().node?.type), `${node}Edge.node`).toBe(node);
    }
  });
});
