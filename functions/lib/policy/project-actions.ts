// The catalog's project actions (catalog.ts spreads them in): the project itself, its repository, members,
// issues' and boards' project-level rights, CI/CD, environments and deployments, clusters, deploy keys and the
// licensed project features. Kept apart only for size; issues, merge requests, notes, groups and users are in catalog.ts.
import { AccessLevel, isAdmin, Visibility } from '../../../db/queries/lib/access.ts';
import type { Actor } from '../context.ts';
import type { OnDemandScanFacts, ProjectFacts, RequirementsFacts } from './facts.ts';
import { canAdminMembers, canDownloadCode, canReadAlert, canReadBuild, canReadProject, featureAvailable, level, signedIn } from './predicates.ts';

/** The builds feature and the repository open to the actor, on a project it reads: where any CI right starts. */
const ci = (a: Actor, p: ProjectFacts) => canReadProject(a, p) && featureAvailable(a, p, 'builds') && featureAvailable(a, p, 'repository');

/** Actions on a project (and on what lives in it without facts of its own). */
export const projectActions = {
  'project:read': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:update': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:delete': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && level(a, p) >= AccessLevel.OWNER,
  // archive_project (ProjectPolicy 13.6's owner_access block): owners and administrators archive and unarchive.
  'project:archive': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // change_namespace (ProjectPolicy 13.6's owner_access block): owners and administrators transfer the project.
  'project:change_namespace': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // remove_fork_project (owner_access): owners and administrators remove the fork relation.
  'project:remove_fork': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // upload_file (Markdown attachments): anyone signed in who reads the project, as comments on it are open to them.
  'project:upload_file': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a),
  'project:star': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a),
  // Anyone signed in who can read a project may fork it, except guests of a private project (GitLab's fork_project).
  'project:fork': (a: Actor, p: ProjectFacts) =>
    canDownloadCode(a, p) &&
    featureAvailable(a, p, 'forking') &&
    signedIn(a) &&
    (p.visibilityLevel >= Visibility.internal || level(a, p) >= AccessLevel.REPORTER),
  // download_code (pushes, commits): anyone who reads a public or internal project; reporters and above of a private one.
  'project:download_code': (a: Actor, p: ProjectFacts) => canDownloadCode(a, p),
  // push_code (commits, files, branches): developers and above, never into an archived project. Which branches a
  // developer may push to is the protected-branch rule on top of this (the default branch is protected as GitLab's
  // default_branch_protection 2: maintainers only): 'project:push_to_protected_branch'.
  'project:push_code': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && featureAvailable(a, p, 'repository') && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:push_to_protected_branch': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && featureAvailable(a, p, 'repository') && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  'project:read_members': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:admin_members': (a: Actor, p: ProjectFacts) => canAdminMembers(a, p),
  // GitLab's :admin_operations (error tracking and other operations settings): maintainers.
  'project:admin_operations': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  // Issues: anyone signed in who can read the project may open one (GitLab's create_issue on public and internal
  // projects; guests and above on private ones). Labels and milestones are managed by reporters and above.
  // An issues feature that is disabled (or private to members) takes away every issue right (ProjectPolicy's
  // issues_disabled prevents create_read_update_admin_destroy(:issue)).
  'project:create_issue': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && featureAvailable(a, p, 'issues') && signedIn(a) && !p.archived,
  // GitLab's admin_issue (set labels, assignees, milestone, due date, lock; time tracking): reporters and above.
  'project:admin_issues': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && featureAvailable(a, p, 'issues') && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Backdating an issue (`created_at`): project owners and administrators.
  'project:set_issue_created_at': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && featureAvailable(a, p, 'issues') && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  'project:admin_labels': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:admin_milestones': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Issue boards (13.6 ProjectPolicy): read_board is reading the project; admin_board/admin_list are reporters and above.
  'project:read_board': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:admin_board': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Project snippets (create_snippet): reporters and above, not in archived projects.
  'project:create_snippet': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && featureAvailable(a, p, 'snippets') && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.REPORTER,
  // Requirements (EE::ProjectPolicy, 13.6): licensed on Ultimate (`requirements_available`); read with the project,
  // create/admin/update reporters and above, destroy owners.
  'project:read_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p),
  'project:create_requirement': (a: Actor, p: RequirementsFacts) =>
    p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:admin_requirement': (a: Actor, p: RequirementsFacts) =>
    p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:update_requirement': (a: Actor, p: RequirementsFacts) =>
    p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:destroy_requirement': (a: Actor, p: RequirementsFacts) =>
    p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // On-demand DAST scans (EE::ProjectPolicy, 13.6: `can?(:developer_access) & on_demand_scans_enabled`, the
  // `security_on_demand_scans` license, Ultimate): developers and above read the profiles and create scans.
  'project:read_on_demand_scans': (a: Actor, p: OnDemandScanFacts) =>
    p.onDemandScansAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  'project:create_on_demand_dast_scan': (a: Actor, p: OnDemandScanFacts) =>
    p.onDemandScansAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // Clusters and cluster agents (ProjectPolicy, 13.6): maintainers and above; an archived project's clusters cannot
  // be created or administered (its `archived_features` include cluster). The agents' license (Premium) is the
  // agents service's check, as GitLab's Clusters::Agents services make it.
  'project:read_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:create_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  'project:admin_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  // Deploy keys (the API's `authorize_admin_project`: maintainers). A key's title is changed by those who may
  // update the key (DeployKeyPolicy: administrators, or for a private key the members of a project holding it);
  // a public key's push right by the project's maintainers (DeployKeysProjectPolicy).
  // CI/CD (ProjectPolicy 13.6): jobs exist where the builds feature and the repository are open to the actor
  // (`builds_disabled | repository_disabled` prevents every pipeline and build right). Whoever reads the project
  // reads its pipelines; its jobs, traces and artifacts too when public_jobs is on, else reporters and above
  // (canReadBuild); developers run, retry and cancel them; maintainers administer triggers and runners
  // (admin_build, admin_project: the runners token); owners delete pipelines.
  'project:read_pipeline': (a: Actor, p: ProjectFacts) => ci(a, p),
  'project:read_build': (a: Actor, p: ProjectFacts) => ci(a, p) && canReadBuild(a, p),
  'project:create_pipeline': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:update_pipeline': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:destroy_pipeline': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  'project:read_pipeline_variable': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_pipeline: maintainers (ProjectPolicy's maintainer_access rule); GraphQL's PipelinePermissions shows it.
  'project:admin_pipeline': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:update_build': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // erase_build: maintainers, or the developer who ran the job (BuildPolicy's owner_of_build).
  'project:erase_build': (a: Actor, p: ProjectFacts & { buildUserId: number | null }) =>
    ci(a, p) && signedIn(a) && !p.archived && (level(a, p) >= AccessLevel.MAINTAINER || (level(a, p) >= AccessLevel.DEVELOPER && a.user!.id === p.buildUserId)),
  'project:admin_build': (a: Actor, p: ProjectFacts) => ci(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  // admin_trigger (Ci::TriggerPolicy, 13.6): admin_build, and only the trigger's owner (changing a trigger).
  'project:admin_trigger': (a: Actor, p: ProjectFacts & { triggerOwnerId: number | null }) =>
    ci(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER && a.user!.id === p.triggerOwnerId,
  'project:read_commit_status': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:create_commit_status': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // Environments and deployments: reporters read them; developers create, change, stop and delete (stopped ones) them.
  'project:read_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:create_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // ProjectPolicy 13.6's developer block (update_environment, destroy_environment, create/update_deployment,
  // create_metrics_dashboard_annotation); EnvironmentPolicy: `~stopped` prevents destroy_environment, and
  // stop_environment needs create_deployment + update_build (with a stop job) or update_environment: developers.
  'project:update_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:stop_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:destroy_stopped_environment': (a: Actor, p: ProjectFacts & { environmentStopped: boolean }) =>
    canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER && p.environmentStopped,
  'project:read_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:create_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:update_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:create_metrics_dashboard_annotation': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // read/create/destroy_deploy_token (ProjectPolicy 13.6): maintainers.
  'project:admin_deploy_tokens': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:admin_deploy_keys': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:update_deploy_key_title': (a: Actor, p: ProjectFacts & { deployKeyPublic: boolean }) =>
    canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER && (isAdmin(a) || !p.deployKeyPublic),
  // The instance security dashboard (EE, 13.6): a project is added by (and shown to) its developers and above
  // (`developer_access`); administrators see every project (read_all_resources).
  'project:security_dashboard': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // destroy_container_image (ProjectPolicy, 13.6): developers and above; what reads and changes the project's
  // container expiration policy through GraphQL.
  'project:destroy_container_image': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_compliance_framework (EE ProjectPolicy, 13.6): owners (of the project or its group) and administrators;
  // the license (Premium) is the projects service's check, which drops the parameter silently as GitLab does.
  'project:admin_compliance_framework': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // Alert management (ProjectPolicy, 13.6): reporters read alerts, developers change them (status, assignees,
  // to-dos, issues, notes); the HTTP integrations are operations settings (admin_operations, above).
  'project:read_alert_management_alert': (a: Actor, p: ProjectFacts) => canReadAlert(a, p),
  'project:update_alert_management_alert': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
} satisfies Record<string, (a: Actor, s: never) => boolean>;
