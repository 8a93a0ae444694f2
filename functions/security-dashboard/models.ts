// What GraphQL's InstanceSecurityDashboard type is resolved from. schema/codegen.ts maps each `<Type>Model` exported
// here to the GraphQL type <Type>.

/** The current user's dashboard: nothing to carry. */
export interface InstanceSecurityDashboardModel {
  kind: 'instance_security_dashboard';
}
