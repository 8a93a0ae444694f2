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

/**
 * The gitignore templates GitLab 13.6 lists: vendor/gitignore as synced from github/gitignore (its state of July
 * 2020, the last change before 13.6), Languages (the root) then Global, each by name as Ruby compares.
 */
export const GITIGNORE_NAMES = [
  ...['Actionscript', 'Ada', 'Agda', 'Android', 'AppEngine', 'AppceleratorTitanium', 'ArchLinuxPackages', 'Autotools', 'C', 'C++'],
  ...['CFWheels', 'CMake', 'CUDA', 'CakePHP', 'ChefCookbook', 'Clojure', 'CodeIgniter', 'CommonLisp', 'Composer', 'Concrete5'],
  ...['Coq', 'CraftCMS', 'D', 'DM', 'Dart', 'Delphi', 'Drupal', 'EPiServer', 'Eagle', 'Elisp'],
  ...['Elixir', 'Elm', 'Erlang', 'ExpressionEngine', 'ExtJs', 'Fancy', 'Finale', 'ForceDotCom', 'Fortran', 'FuelPHP'],
  ...['GWT', 'Gcov', 'GitBook', 'Go', 'Godot', 'Gradle', 'Grails', 'Haskell', 'IGORPro', 'Idris'],
  ...['JBoss', 'JENKINS_HOME', 'Java', 'Jekyll', 'Joomla', 'Julia', 'KiCad', 'Kohana', 'Kotlin', 'LabVIEW'],
  ...['Laravel', 'Leiningen', 'LemonStand', 'Lilypond', 'Lithium', 'Lua', 'Magento', 'Maven', 'Mercury', 'MetaProgrammingSystem'],
  ...['Nanoc', 'Nim', 'Node', 'OCaml', 'Objective-C', 'Opa', 'OpenCart', 'OracleForms', 'Packer', 'Perl'],
  ...['Phalcon', 'PlayFramework', 'Plone', 'Prestashop', 'Processing', 'PureScript', 'Python', 'Qooxdoo', 'Qt', 'R'],
  ...['ROS', 'Rails', 'Raku', 'RhodesRhomobile', 'Ruby', 'Rust', 'SCons', 'Sass', 'Scala', 'Scheme'],
  ...['Scrivener', 'Sdcc', 'SeamGen', 'SketchUp', 'Smalltalk', 'Stella', 'SugarCRM', 'Swift', 'Symfony', 'SymphonyCMS'],
  ...['TeX', 'Terraform', 'Textpattern', 'TurboGears2', 'Typo3', 'Umbraco', 'Unity', 'UnrealEngine', 'VVVV', 'VisualStudio'],
  ...['Waf', 'WordPress', 'Xojo', 'Yeoman', 'Yii', 'ZendFramework', 'Zephir'],
  // Global
  ...['Anjuta', 'Ansible', 'Archives', 'Backup', 'Bazaar', 'BricxCC', 'CVS', 'Calabash', 'Cloud9', 'CodeKit'],
  ...['DartEditor', 'Diff', 'Dreamweaver', 'Dropbox', 'Eclipse', 'EiffelStudio', 'Emacs', 'Ensime', 'Espresso', 'FlexBuilder'],
  ...['GPG', 'Images', 'JDeveloper', 'JEnv', 'JetBrains', 'KDevelop4', 'Kate', 'Lazarus', 'LibreOffice', 'Linux'],
  ...['LyX', 'MATLAB', 'Mercurial', 'Metals', 'MicrosoftOffice', 'ModelSim', 'Momentics', 'MonoDevelop', 'NetBeans', 'Ninja'],
  ...['NotepadPP', 'Octave', 'Otto', 'PSoCCreator', 'Patch', 'PuTTY', 'Redcar', 'Redis', 'SBT', 'SVN'],
  ...['SlickEdit', 'Stata', 'SublimeText', 'SynopsysVCS', 'Tags', 'TextMate', 'TortoiseGit', 'Vagrant', 'Vim', 'VirtualEnv'],
  ...['Virtuoso', 'VisualStudioCode', 'WebMethods', 'Windows', 'Xcode', 'XilinxISE', 'macOS'],
];

/** The Dockerfile templates GitLab 13.6 lists (vendor/Dockerfile), by name. */
export const DOCKERFILE_NAMES = [
  ...['Binary', 'Binary-alpine', 'Binary-scratch', 'Golang', 'Golang-alpine', 'Golang-scratch', 'HTTPd', 'Node', 'Node-alpine', 'OpenJDK'],
  ...['OpenJDK-alpine', 'PHP', 'Python', 'Python-alpine', 'Python2', 'Ruby', 'Ruby-alpine', 'Rust', 'Swift'],
];
