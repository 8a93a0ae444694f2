// The route groups, each loaded on the first request that reaches one of its routes: the REST domains under /api/v4
// and the rest of the app (GraphQL's endpoint, uploads, alert notifications, the explorer page, OAuth, the web
// pages). The order is the mount order (it decides which handler runs first where paths overlap).
import type { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';

type Routes = Promise<Hono<AppEnv>>;

export const API_DOMAINS = {
  version: (): Routes => import('../version/routes.ts').then((m) => m.versionRoutes),
  users: (): Routes => import('../users/routes.ts').then((m) => m.userRoutes),
  userProfile: (): Routes => import('../users/profile-routes.ts').then((m) => m.userProfileRoutes),
  tokens: (): Routes => import('../tokens/routes.ts').then((m) => m.tokenRoutes),
  groups: (): Routes => import('../groups/routes.ts').then((m) => m.groupRoutes),
  namespaces: (): Routes => import('../namespaces/routes.ts').then((m) => m.namespaceRoutes),
  applicationSettings: (): Routes => import('../application-settings/routes.ts').then((m) => m.applicationSettingRoutes),
  broadcastMessages: (): Routes => import('../broadcast-messages/routes.ts').then((m) => m.broadcastMessageRoutes),
  projects: (): Routes => import('../projects/routes.ts').then((m) => m.projectRoutes),
  members: (): Routes => import('../members/routes.ts').then((m) => m.memberRoutes),
  sharing: (): Routes => import('../sharing/routes.ts').then((m) => m.sharingRoutes),
  badges: (): Routes => import('../badges/routes.ts').then((m) => m.badgeRoutes),
  customAttributes: (): Routes => import('../custom-attributes/routes.ts').then((m) => m.customAttributeRoutes),
  projectUploads: (): Routes => import('../uploads/api-routes.ts').then((m) => m.uploadApiRoutes),
  notificationSettings: (): Routes => import('../notification-settings/routes.ts').then((m) => m.notificationSettingRoutes),
  applications: (): Routes => import('../applications/routes.ts').then((m) => m.applicationRoutes),
  errorTracking: (): Routes => import('../error-tracking/routes.ts').then((m) => m.errorTrackingRoutes),
  features: (): Routes => import('../features/routes.ts').then((m) => m.featureRoutes),
  backgroundJobs: (): Routes => import('../background-jobs/routes.ts').then((m) => m.backgroundJobRoutes),
  events: (): Routes => import('../events/routes.ts').then((m) => m.eventRoutes),
  issues: (): Routes => import('../issues/routes.ts').then((m) => m.issueRoutes),
  mergeRequests: (): Routes => import('../merge-requests/routes.ts').then((m) => m.mergeRequestRoutes),
  mergeRequestTracking: (): Routes => import('../merge-requests/tracking-routes.ts').then((m) => m.mergeRequestTrackingRoutes),
  notes: (): Routes => import('../notes/routes.ts').then((m) => m.noteRoutes),
  discussions: (): Routes => import('../discussions/routes.ts').then((m) => m.discussionRoutes),
  awardEmoji: (): Routes => import('../award-emoji/routes.ts').then((m) => m.awardEmojiRoutes),
  todos: (): Routes => import('../todos/routes.ts').then((m) => m.todoRoutes),
  labels: (): Routes => import('../labels/routes.ts').then((m) => m.labelRoutes),
  milestones: (): Routes => import('../milestones/routes.ts').then((m) => m.milestoneRoutes),
  epics: (): Routes => import('../epics/routes.ts').then((m) => m.epicRoutes),
  iterations: (): Routes => import('../iterations/routes.ts').then((m) => m.iterationRoutes),
  boards: (): Routes => import('../boards/routes.ts').then((m) => m.boardRoutes),
  snippets: (): Routes => import('../snippets/routes.ts').then((m) => m.snippetRoutes),
  repositoryReads: (): Routes => import('../repositories/routes.ts').then((m) => m.repositoryReadRoutes),
  repositoryWrites: (): Routes => import('../repositories/writes/routes.ts').then((m) => m.repositoryWriteRoutes),
  refs: (): Routes => import('../repositories/writes/ref-routes.ts').then((m) => m.refRoutes),
  commitComments: (): Routes => import('../repositories/comments/routes.ts').then((m) => m.commitCommentRoutes),
  repositoryArchives: (): Routes => import('../repositories/archives/routes.ts').then((m) => m.repositoryArchiveRoutes),
  repositoryHistory: (): Routes => import('../repositories/reads/history-routes.ts').then((m) => m.repositoryHistoryRoutes),
  deployKeys: (): Routes => import('../deploy-keys/routes.ts').then((m) => m.deployKeyRoutes),
  gpgKeys: (): Routes => import('../gpg-keys/routes.ts').then((m) => m.gpgKeyRoutes),
  deployTokens: (): Routes => import('../deploy-tokens/routes.ts').then((m) => m.deployTokenRoutes),
  search: (): Routes => import('../search/routes.ts').then((m) => m.searchRoutes),
  userAgentDetails: (): Routes => import('../user-agent-details/routes.ts').then((m) => m.userAgentDetailRoutes),
  templates: (): Routes => import('../templates/routes.ts').then((m) => m.templateRoutes),
  ciLint: (): Routes => import('../ci/routes.ts').then((m) => m.ciLintRoutes),
  pipelines: (): Routes => import('../pipelines/routes.ts').then((m) => m.pipelineRoutes),
  jobs: (): Routes => import('../jobs/routes.ts').then((m) => m.jobRoutes),
  triggers: (): Routes => import('../triggers/routes.ts').then((m) => m.triggerRoutes),
  commitStatuses: (): Routes => import('../commit-statuses/routes.ts').then((m) => m.commitStatusRoutes),
  environments: (): Routes => import('../environments/routes.ts').then((m) => m.environmentRoutes),
  deployments: (): Routes => import('../deployments/routes.ts').then((m) => m.deploymentRoutes),
  runnerAdmin: (): Routes => import('../runners/admin-routes.ts').then((m) => m.runnerAdminRoutes),
  runners: (): Routes => import('../runners/routes.ts').then((m) => m.runnerRoutes),
};

/** Mounted on the app itself, after /api/v4. */
export const APP_DOMAINS = {
  graphql: (): Routes => import('../graphql/routes.ts').then((m) => m.graphqlRoutes),
  uploads: (): Routes => import('../uploads/routes.ts').then((m) => m.uploadRoutes),
  alertNotify: (): Routes => import('../alert-integrations/routes.ts').then((m) => m.alertNotifyRoutes),
  explorer: (): Routes => import('../web/explorer/routes.ts').then((m) => m.explorerRoutes),
  oauth: (): Routes => import('../oauth/routes.ts').then((m) => m.oauthRoutes),
  gitHttp: (): Routes => import('../repositories/transport/routes.ts').then((m) => m.gitHttpRoutes),
  web: (): Routes => import('../web/routes.ts').then((m) => m.webRoutes),
};

export const DOMAINS = { ...API_DOMAINS, ...APP_DOMAINS };
export type ApiDomain = keyof typeof API_DOMAINS;
export type AppDomain = keyof typeof APP_DOMAINS;
export type Domain = keyof typeof DOMAINS;
