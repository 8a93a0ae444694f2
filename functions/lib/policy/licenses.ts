// License rules (DESIGN.md "Tiers"): which paid features the instance's INSTANCE_TIER turns on, GitLab's
// `feature_available?` per feature. Services load them into the facts (epicsAvailable, requirementsAvailable...) the
// catalog's rules read, so the license rules sit beside the role rules.

/** GitLab's `feature_available?(:epics)`: Premium and Ultimate. */
export const epicsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:subepics)` (multi-level epics, 13.6): Ultimate only. */
export const subepicsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/** GitLab's `feature_available?(:iterations)` (Starter in 13.x): Premium and Ultimate. */
export const iterationsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `weight_available?` (`feature_available?(:issue_weights)`): Premium and Ultimate. */
export const weightsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:compliance_framework)` (13.6): Premium and Ultimate. */
export const complianceFrameworkAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:security_dashboard)` (13.6 Gold, our Ultimate). */
export const securityDashboardAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/** GitLab's `feature_available?(:multiple_alert_http_integrations)` (13.6): Premium and Ultimate. */
export const multipleAlertIntegrationsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:generic_alert_fingerprinting)` (13.6): Premium and Ultimate. */
export const genericAlertFingerprintingAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:cluster_agents)` (the Kubernetes agent, 13.6): Premium and Ultimate. */
export const clusterAgentsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:requirements)` (and `:quality_management`, test cases): Ultimate only. */
export const requirementsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/**
 * Issue board license features (GitLab 13.6; its Starter maps to our premium): WIP limits and scoped boards are
 * Starter, assignee and milestone lists and multiple group boards Premium. A free instance is GitLab Core.
 */
export type BoardFeature = 'wip_limits' | 'scoped_issue_board' | 'board_assignee_lists' | 'board_milestone_lists' | 'multiple_group_issue_boards';
export const boardFeatureAvailable = (tier: 'free' | 'premium' | 'ultimate', _feature: BoardFeature) => tier !== 'free';

/** GitLab's `feature_available?(:security_on_demand_scans)` (DAST site and scanner profiles, on-demand scans, 13.6): Ultimate. */
export const dastAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';
