// The `.gitlab-ci.yml` templates GitLab 13.6 (CE) lists, in its listing order: the General category (the root),
// then Pages and Verify, each by name as Ruby compares (uppercase first). Researched from GitLab's repository history
// (templates added by 13.6, minus `.latest.` and Verify/Browser-Performance, which CE leaves out); DAST stays at the
// root here, where this project's DAST scans include it from.
export const CI_TEMPLATE_NAMES = [
  ...['Android', 'Android-Fastlane', 'Auto-DevOps', 'Bash', 'C++', 'Chef', 'Clojure', 'Code-Quality', 'Composer', 'Crystal', 'DAST', 'Dart'],
  ...['Deploy-ECS', 'Django', 'Docker', 'Elixir', 'Go', 'Gradle', 'Grails', 'Julia', 'LaTeX', 'Laravel', 'Managed-Cluster-Applications'],
  ...['Maven', 'Mono', 'Nodejs', 'OpenShift', 'PHP', 'Packer', 'Python', 'Ruby', 'Rust', 'Scala', 'Serverless', 'Swift', 'Terraform'],
  ...['dotNET', 'iOS-Fastlane', 'npm'],
  // Pages
  ...['Brunch', 'Doxygen', 'Gatsby', 'HTML', 'Harp', 'Hexo', 'Hugo', 'Hyde', 'JBake', 'Jekyll', 'Jigsaw', 'Lektor', 'Metalsmith'],
  ...['Middleman', 'Nanoc', 'Octopress', 'Pelican', 'SwaggerUI'],
  // Verify
  ...['Accessibility', 'FailFast', 'Load-Performance-Testing'],
];
