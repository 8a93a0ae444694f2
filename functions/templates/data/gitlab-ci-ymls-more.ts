// More .gitlab-ci.yml templates written for this project: one for every name GitLab 13.6 lists in
// GET /templates/gitlab_ci_ymls that gitlab-ci-ymls.ts does not already have. Only the names (and the usual images
// and commands of each tool) follow GitLab; the configurations are our own, short, and use only keywords GitLab
// 13.6 knows. Keys are paths under the template root without `.gitlab-ci.yml`, as in gitlab-ci-ymls.ts: the root is
// the "General" category, `Pages/` "Pages" and `Verify/` "Verify" (13.6's `autodeploy/` is empty). Like GitLab
// 13.6, no `.latest` variant and no `Verify/Browser-Performance` (CE excludes both from the list) is here.
const HEADER = '# This file is a template, and might need editing before it works on your project.\n';

export const MORE_GITLAB_CI_YMLS: Readonly<Record<string, string>> = {
  Android: `${HEADER}# Assemble and lint/unit-test an Android app with the Gradle wrapper; the SDK is installed once and cached.
image: openjdk:11-jdk

variables:
  ANDROID_COMPILE_SDK: "30"
  ANDROID_BUILD_TOOLS: "30.0.2"
  ANDROID_TOOLS_ZIP: "commandlinetools-linux-6858069_latest.zip"
  ANDROID_SDK_ROOT: "$CI_PROJECT_DIR/.android-sdk"
  GRADLE_USER_HOME: "$CI_PROJECT_DIR/.gradle"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .android-sdk/
    - .gradle/

before_script:
  - |
    if [ ! -x "$ANDROID_SDK_ROOT/cmdline-tools/tools/bin/sdkmanager" ]; then
      apt-get update -qq && apt-get install -y -qq unzip
      curl -sSL -o /tmp/tools.zip "https://dl.google.com/android/repository/$ANDROID_TOOLS_ZIP" && unzip -q /tmp/tools.zip -d /tmp
      mkdir -p "$ANDROID_SDK_ROOT/cmdline-tools" && mv /tmp/cmdline-tools "$ANDROID_SDK_ROOT/cmdline-tools/tools"
    fi
  - export PATH="$PATH:$ANDROID_SDK_ROOT/cmdline-tools/tools/bin"
  - yes | sdkmanager --licenses > /dev/null
  - sdkmanager "platforms;android-$ANDROID_COMPILE_SDK" "build-tools;$ANDROID_BUILD_TOOLS" "platform-tools"

check:
  stage: test
  script:
    - ./gradlew lint testDebugUnitTest

assemble:
  stage: build
  script:
    - ./gradlew assembleDebug
  artifacts:
    paths:
      - app/build/outputs/apk/
`,
  'Android-Fastlane': `${HEADER}# Test and ship an Android app with fastlane (from the Gemfile; lanes \`test\`, \`beta\` and \`deploy\` in fastlane/Fastfile).
# Keep the Play Store service account key in a file-type CI/CD variable named GOOGLE_PLAY_JSON_KEY.
image: thyrlian/android-sdk:latest

variables:
  LC_ALL: "C.UTF-8"
  LANG: "C.UTF-8"
  GRADLE_USER_HOME: "$CI_PROJECT_DIR/.gradle"
  BUNDLE_PATH: vendor/bundle

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .gradle/
    - vendor/bundle/

before_script:
  - apt-get update -qq && apt-get install -y -qq ruby-full build-essential
  - bundle install

test:
  stage: test
  script:
    - bundle exec fastlane test

beta:
  stage: deploy
  script:
    - bundle exec fastlane beta json_key:"$GOOGLE_PLAY_JSON_KEY"
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH

release:
  stage: deploy
  script:
    - bundle exec fastlane deploy json_key:"$GOOGLE_PLAY_JSON_KEY"
  rules:
    - if: $CI_COMMIT_TAG
      when: manual
`,
  'Auto-DevOps': `${HEADER}# Build, scan and deploy like Auto DevOps, in one file: the Dockerfile's image goes to the project's registry, SAST
# scans the source, and your ./deploy.sh deploys a review app per branch and production from the default branch.
include:
  - template: Security/SAST.gitlab-ci.yml

variables:
  IMAGE: "$CI_REGISTRY_IMAGE/$CI_COMMIT_REF_SLUG:$CI_COMMIT_SHA"

build:
  stage: build
  image: docker:19.03.12
  services:
    - docker:19.03.12-dind
  script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
    - docker build -t "$IMAGE" .
    - docker push "$IMAGE"

review:
  stage: deploy
  image: alpine:3.12
  script:
    - ./deploy.sh "review-$CI_COMMIT_REF_SLUG" "$IMAGE"
  environment:
    name: review/$CI_COMMIT_REF_SLUG
  rules:
    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

production:
  stage: deploy
  image: alpine:3.12
  script:
    - ./deploy.sh production "$IMAGE"
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'C++': `${HEADER}# Configure, build and test a CMake project with GCC. The build tree goes from the build job to the tests.
image: gcc:10

stages:
  - build
  - test

before_script:
  - apt-get update -qq && apt-get install -y -qq cmake

build:
  stage: build
  script:
    - cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
    - cmake --build build -- -j"$(nproc)"
  artifacts:
    paths:
      - build/
    expire_in: 1 day

test:
  stage: test
  script:
    - cd build
    - ctest --output-on-failure
`,
  Chef: `${HEADER}# Lint a Chef cookbook with Cookstyle, run its ChefSpec tests, then converge it with Test Kitchen (kitchen-dokken
# in Docker) on the default branch.
image: chef/chefworkstation:latest

variables:
  CHEF_LICENSE: "accept-no-persist"

stages:
  - lint
  - unit
  - integration

cookstyle:
  stage: lint
  script:
    - cookstyle .

chefspec:
  stage: unit
  script:
    - chef exec rspec

kitchen:
  stage: integration
  services:
    - docker:19.03.12-dind
  variables:
    DOCKER_HOST: "tcp://docker:2375"
    DOCKER_TLS_CERTDIR: ""
    KITCHEN_LOCAL_YAML: ".kitchen.dokken.yml"
  script:
    - kitchen test --destroy=always
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Clojure: `${HEADER}# Test a Leiningen project, and build its standalone jar on the default branch.
image: clojure:openjdk-11-lein

stages:
  - test
  - build

before_script:
  - lein deps

test:
  stage: test
  script:
    - lein test

uberjar:
  stage: build
  script:
    - lein uberjar
  artifacts:
    paths:
      - target/uberjar/*-standalone.jar
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Code-Quality': `${HEADER}# Analyze the source with GitLab's Code Quality image (Code Climate engines) and attach the report to merge requests.
#
# include:
#   - template: Code-Quality.gitlab-ci.yml
#
# The job runs in the \`test\` stage; set CODE_QUALITY_DISABLED to skip it.

code_quality:
  stage: test
  image: docker:19.03.12
  services:
    - docker:19.03.12-dind
  variables:
    DOCKER_TLS_CERTDIR: ""
    CODE_QUALITY_IMAGE: "registry.gitlab.com/gitlab-org/ci-cd/codequality:0.85.18"
  script:
    - docker pull --quiet "$CODE_QUALITY_IMAGE"
    - >-
      docker run --rm --env SOURCE_CODE="$PWD" --volume "$PWD":/code
      --volume /var/run/docker.sock:/var/run/docker.sock "$CODE_QUALITY_IMAGE" /code
  artifacts:
    reports:
      codequality: gl-code-quality-report.json
    expire_in: 1 week
  rules:
    - if: $CODE_QUALITY_DISABLED
      when: never
    - if: $CI_COMMIT_BRANCH
`,
  Composer: `${HEADER}# Validate composer.json, then publish the package to the project's Composer registry in GitLab: tags are
# published as versions, the default branch as a dev version.
stages:
  - test
  - deploy

validate:
  stage: test
  image: composer:2
  script:
    - composer validate --no-check-publish

publish:
  stage: deploy
  image: curlimages/curl:latest
  script:
    - if [ -n "$CI_COMMIT_TAG" ]; then REF="tag=$CI_COMMIT_TAG"; else REF="branch=$CI_COMMIT_BRANCH"; fi
    - >-
      curl --fail --silent --show-error --header "Job-Token: $CI_JOB_TOKEN" --data "$REF"
      "$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/composer"
  rules:
    - if: $CI_COMMIT_TAG
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Crystal: `${HEADER}# Install shards, check formatting and run the specs of a Crystal project, then build release binaries.
image: crystallang/crystal:0.35.1

cache:
  paths:
    - lib/

stages:
  - test
  - build

before_script:
  - shards install

format:
  stage: test
  script:
    - crystal tool format --check

spec:
  stage: test
  script:
    - crystal spec

build:
  stage: build
  script:
    - shards build --release
  artifacts:
    paths:
      - bin/
`,
  Dart: `${HEADER}# Fetch dependencies, check formatting, analyze and test a Dart package. Pub's cache is kept in the project.
image: google/dart:2.10

variables:
  PUB_CACHE: "$CI_PROJECT_DIR/.pub-cache"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .pub-cache/

before_script:
  - pub get

analyze:
  stage: test
  script:
    - dartfmt -n --set-exit-if-changed .
    - dartanalyzer --fatal-infos .

test:
  stage: test
  script:
    - pub run test
`,
  'Deploy-ECS': `${HEADER}# Build an image into the project's registry and roll it out to an Amazon ECS service from the default branch.
# CI/CD variables: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION, and CI_AWS_ECS_CLUSTER,
# CI_AWS_ECS_SERVICE and CI_AWS_ECS_TASK_DEFINITION; the task definition's first container gets the new image.
stages:
  - build
  - deploy

build:
  stage: build
  image: docker:19.03.12
  services:
    - docker:19.03.12-dind
  script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
    - docker build -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA" .
    - docker push "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA"

deploy:
  stage: deploy
  image:
    name: amazon/aws-cli:latest
    entrypoint: [""]
  script:
    - yum install -y -q jq
    - aws ecs describe-task-definition --task-definition "$CI_AWS_ECS_TASK_DEFINITION" --query taskDefinition > task.json
    - >-
      jq --arg image "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA" '.containerDefinitions[0].image = $image
      | del(.taskDefinitionArn, .revision, .status, .requiresAttributes, .compatibilities)' task.json > new-task.json
    - aws ecs register-task-definition --cli-input-json file://new-task.json
    - aws ecs update-service --cluster "$CI_AWS_ECS_CLUSTER" --service "$CI_AWS_ECS_SERVICE" --task-definition "$CI_AWS_ECS_TASK_DEFINITION"
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Django: `${HEADER}# Check and test a Django project against PostgreSQL. The settings should read the database from DATABASE_URL.
image: python:3.8

services:
  - postgres:12

variables:
  POSTGRES_DB: app_test
  POSTGRES_USER: app
  POSTGRES_PASSWORD: app
  DATABASE_URL: "postgres://app:app@postgres:5432/app_test"
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

before_script:
  - pip install -r requirements.txt

checks:
  stage: test
  script:
    - python manage.py check
    - python manage.py makemigrations --check --dry-run

test:
  stage: test
  script:
    - python manage.py test
`,
  Elixir: `${HEADER}# Check formatting, compile without warnings and test a Mix project against PostgreSQL.
image: elixir:1.11

services:
  - postgres:12

variables:
  MIX_ENV: test
  POSTGRES_PASSWORD: postgres
  DATABASE_URL: "ecto://postgres:postgres@postgres/app_test"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - deps/
    - _build/

before_script:
  - mix local.hex --force
  - mix local.rebar --force
  - mix deps.get

lint:
  stage: test
  script:
    - mix format --check-formatted
    - mix compile --warnings-as-errors

test:
  stage: test
  script:
    - mix test
`,
  Gradle: `${HEADER}# Assemble and check a JVM project with Gradle; Gradle's caches live in the project so they can be cached.
image: gradle:6.7-jdk11

variables:
  GRADLE_OPTS: "-Dorg.gradle.daemon=false"
  GRADLE_USER_HOME: "$CI_PROJECT_DIR/.gradle"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .gradle/caches/
    - .gradle/wrapper/

stages:
  - build
  - test

assemble:
  stage: build
  script:
    - gradle assemble
  artifacts:
    paths:
      - build/libs/

check:
  stage: test
  script:
    - gradle check
  artifacts:
    reports:
      junit: build/test-results/test/TEST-*.xml
`,
  Grails: `${HEADER}# Test a Grails application with its Gradle wrapper and package it on the default branch.
image: openjdk:11-jdk

variables:
  GRADLE_OPTS: "-Dorg.gradle.daemon=false"
  GRADLE_USER_HOME: "$CI_PROJECT_DIR/.gradle"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .gradle/

stages:
  - test
  - build

before_script:
  - chmod +x ./gradlew

test:
  stage: test
  script:
    - ./gradlew check

package:
  stage: build
  script:
    - ./gradlew assemble
  artifacts:
    paths:
      - build/libs/
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Julia: `${HEADER}# Test a Julia package on the long-term support release and a current one; build its Documenter docs (docs/make.jl)
# on the default branch.
stages:
  - test
  - docs

julia-1.0:
  stage: test
  image: julia:1.0
  script:
    - julia --project=@. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'

julia-1.5:
  stage: test
  image: julia:1.5
  script:
    - julia --project=@. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'

documentation:
  stage: docs
  image: julia:1.5
  script:
    - julia --project=docs -e 'using Pkg; Pkg.develop(PackageSpec(path=pwd())); Pkg.instantiate()'
    - julia --project=docs docs/make.jl
  artifacts:
    paths:
      - docs/build/
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      exists:
        - docs/make.jl
`,
  LaTeX: `${HEADER}# Compile every top-level .tex file to PDF with latexmk and keep the PDFs as artifacts.
image: texlive/texlive:latest

stages:
  - build

compile:
  stage: build
  script:
    - latexmk -pdf -interaction=nonstopmode -halt-on-error *.tex
  artifacts:
    paths:
      - "*.pdf"
    expire_in: 1 month
`,
  Laravel: `${HEADER}# Install dependencies and run a Laravel application's migrations and tests against MySQL.
image: php:7.4

services:
  - mysql:5.7

variables:
  MYSQL_DATABASE: laravel
  MYSQL_ROOT_PASSWORD: secret
  DB_HOST: mysql
  DB_DATABASE: laravel
  DB_USERNAME: root
  DB_PASSWORD: secret

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - vendor/

before_script:
  - apt-get update -qq && apt-get install -y -qq git unzip libzip-dev
  - docker-php-ext-install pdo_mysql zip
  - curl -sS https://getcomposer.org/installer | php -- --install-dir=/usr/local/bin --filename=composer
  - composer install --prefer-dist --no-progress --no-interaction
  - cp .env.example .env
  - php artisan key:generate

test:
  stage: test
  script:
    - php artisan migrate --force
    - php vendor/bin/phpunit
`,
  'Managed-Cluster-Applications': `${HEADER}# For a cluster management project: keep the applications of the project's Kubernetes cluster in a helmfile
# (HELMFILE, by default .gitlab/managed-apps/helmfile.yaml). Branches show the difference, the default branch applies it.
image:
  name: quay.io/roboll/helmfile:v0.135.0
  entrypoint: [""]

variables:
  HELMFILE: ".gitlab/managed-apps/helmfile.yaml"

stages:
  - diff
  - apply

diff:
  stage: diff
  script:
    - helmfile --file "$HELMFILE" diff
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

apply:
  stage: apply
  script:
    - helmfile --file "$HELMFILE" apply
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Maven: `${HEADER}# Compile, verify and (from the default branch) deploy a Maven project. The local repository lives in the project
# so it can be cached; the deploy reads its server credentials from ci_settings.xml.
image: maven:3.6-openjdk-11

variables:
  MAVEN_OPTS: "-Dmaven.repo.local=$CI_PROJECT_DIR/.m2/repository"
  MAVEN_CLI_OPTS: "--batch-mode --errors --show-version"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .m2/repository/

compile:
  stage: build
  script:
    - mvn $MAVEN_CLI_OPTS compile

verify:
  stage: test
  script:
    - mvn $MAVEN_CLI_OPTS verify
  artifacts:
    reports:
      junit: target/surefire-reports/TEST-*.xml

deploy:
  stage: deploy
  script:
    - mvn $MAVEN_CLI_OPTS deploy -s ci_settings.xml -DskipTests
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      exists:
        - ci_settings.xml
`,
  Mono: `${HEADER}# Restore, build and test a .NET Framework solution with Mono: msbuild, then the NUnit console runner on every
# *Tests.dll of the Release build.
image: mono:6.10

variables:
  NUNIT_VERSION: "3.11.1"

stages:
  - build
  - test

build:
  stage: build
  script:
    - nuget restore
    - msbuild /p:Configuration=Release
  artifacts:
    paths:
      - "*/bin/Release/"
    expire_in: 1 day

test:
  stage: test
  script:
    - nuget install NUnit.ConsoleRunner -Version "$NUNIT_VERSION" -OutputDirectory tools
    - mono "tools/NUnit.ConsoleRunner.$NUNIT_VERSION/tools/nunit3-console.exe" $(find . -path '*/bin/Release/*Tests.dll')
`,
  OpenShift: `${HEADER}# Build and deploy to OpenShift from source: a review app per branch, production from the default branch.
# CI/CD variables: OPENSHIFT_SERVER and OPENSHIFT_TOKEN (a service account's token).
image: openshift/origin-cli:v3.11

before_script:
  - oc login "$OPENSHIFT_SERVER" --token="$OPENSHIFT_TOKEN" --insecure-skip-tls-verify
  - oc project "$CI_PROJECT_PATH_SLUG" 2> /dev/null || oc new-project "$CI_PROJECT_PATH_SLUG"

.deploy: &deploy
  script:
    - |
      if oc get buildconfig "$APP" > /dev/null 2>&1; then
        oc start-build "$APP" --follow
      else
        oc new-app "$CI_REPOSITORY_URL#$CI_COMMIT_REF_NAME" --name="$APP"
        oc expose service "$APP"
      fi

review:
  <<: *deploy
  stage: deploy
  variables:
    APP: review-$CI_COMMIT_REF_SLUG
  environment:
    name: review/$CI_COMMIT_REF_SLUG
  rules:
    - if: $CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

production:
  <<: *deploy
  stage: deploy
  variables:
    APP: $CI_PROJECT_NAME
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  PHP: `${HEADER}# Lint the PHP files and run PHPUnit on two PHP versions; Composer installs the dependencies.
cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - vendor/

.phpunit: &phpunit
  stage: test
  before_script:
    - apt-get update -qq && apt-get install -y -qq git unzip
    - curl -sS https://getcomposer.org/installer | php -- --install-dir=/usr/local/bin --filename=composer
    - composer install --prefer-dist --no-progress --no-interaction
  script:
    - vendor/bin/phpunit --colors=never

lint:
  stage: test
  image: php:7.4
  script:
    - find . -name '*.php' -not -path './vendor/*' -print0 | xargs -0 -n1 php -l

phpunit-7.3:
  <<: *phpunit
  image: php:7.3

phpunit-7.4:
  <<: *phpunit
  image: php:7.4
`,
  Packer: `${HEADER}# Validate the Packer templates (*.json) on every branch; build the images from the default branch, by hand.
# The builders' credentials go in CI/CD variables.
image:
  name: hashicorp/packer:1.6.5
  entrypoint: [""]

stages:
  - validate
  - build

validate:
  stage: validate
  script:
    - packer version
    - for template in *.json; do packer validate "$template"; done

build:
  stage: build
  script:
    - for template in *.json; do packer build -color=false "$template"; done
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      when: manual
`,
  Ruby: `${HEADER}# Install the bundle and run the default Rake task (your tests), plus RuboCop when the project configures it.
image: ruby:2.7

variables:
  BUNDLE_PATH: vendor/bundle
  BUNDLE_JOBS: "4"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - vendor/bundle/

before_script:
  - ruby -v
  - gem install bundler --no-document
  - bundle install

rubocop:
  stage: test
  script:
    - bundle exec rubocop
  rules:
    - exists:
        - .rubocop.yml

test:
  stage: test
  script:
    - bundle exec rake
`,
  Rust: `${HEADER}# Check formatting, lint with Clippy and test a Cargo project; build the release binaries on the default branch.
image: rust:1.47

variables:
  CARGO_HOME: "$CI_PROJECT_DIR/.cargo"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .cargo/registry/
    - target/

stages:
  - test
  - build

lint:
  stage: test
  before_script:
    - rustup component add rustfmt clippy
  script:
    - cargo fmt -- --check
    - cargo clippy --all-targets -- -D warnings

test:
  stage: test
  script:
    - cargo test

release:
  stage: build
  script:
    - cargo build --release
  artifacts:
    paths:
      - target/release/
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Scala: `${HEADER}# Test an sbt project and package it on the default branch; sbt's, Ivy's and Coursier's caches live in the project.
image: hseeberger/scala-sbt:11.0.8_1.4.2_2.13.3

variables:
  COURSIER_CACHE: "$CI_PROJECT_DIR/.cache/coursier"
  SBT_OPTS: "-Dsbt.global.base=$CI_PROJECT_DIR/.sbt -Dsbt.ivy.home=$CI_PROJECT_DIR/.ivy2"

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .cache/coursier/
    - .ivy2/
    - .sbt/

stages:
  - test
  - package

test:
  stage: test
  script:
    - sbt -batch test

package:
  stage: package
  script:
    - sbt -batch package
  artifacts:
    paths:
      - target/scala-*/*.jar
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Serverless: `${HEADER}# Test functions and deploy them with the Serverless Framework (serverless.yml) from the default branch.
# Put the provider's credentials in CI/CD variables (for AWS: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).
image: node:14

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - node_modules/

stages:
  - test
  - deploy

before_script:
  - npm ci

test:
  stage: test
  script:
    - npm test

deploy:
  stage: deploy
  script:
    - npx serverless deploy --stage production --verbose
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Swift: `${HEADER}# Build and test a Swift package with SwiftPM on Linux. (For Xcode projects use a macOS runner and xcodebuild.)
image: swift:5.3

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - .build/

stages:
  - build
  - test

build:
  stage: build
  script:
    - swift build -c release

test:
  stage: test
  script:
    - swift test --enable-test-discovery
`,
  Terraform: `${HEADER}# Check, plan and apply Terraform configuration, keeping the state in the project's GitLab-managed Terraform
# state (declare \`backend "http" {}\`). The plan made on the default branch is applied by hand.
image:
  name: hashicorp/terraform:0.13.5
  entrypoint: [""]

variables:
  TF_ADDRESS: "$CI_API_V4_URL/projects/$CI_PROJECT_ID/terraform/state/production"

before_script:
  - >-
    terraform init -input=false -reconfigure -backend-config="address=$TF_ADDRESS" -backend-config="username=gitlab-ci-token"
    -backend-config="password=$CI_JOB_TOKEN" -backend-config="lock_address=$TF_ADDRESS/lock" -backend-config="lock_method=POST"
    -backend-config="unlock_address=$TF_ADDRESS/lock" -backend-config="unlock_method=DELETE"

validate:
  stage: build
  script:
    - terraform fmt -check -recursive
    - terraform validate

plan:
  stage: test
  script:
    - terraform plan -input=false -out=plan.tfplan
  artifacts:
    paths:
      - plan.tfplan

apply:
  stage: deploy
  script:
    - terraform apply -input=false plan.tfplan
  environment:
    name: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      when: manual
`,
  dotNET: `${HEADER}# Build and test a .NET Framework solution on a Windows runner (shell executor, PowerShell) with the Visual Studio
# Build Tools, nuget.exe and vstest.console.exe on its PATH.
variables:
  CONFIGURATION: Release

stages:
  - build
  - test

build:
  stage: build
  script:
    - nuget restore
    - msbuild /m /p:Configuration=$env:CONFIGURATION
  artifacts:
    paths:
      - "*/bin/Release/"
    expire_in: 1 day

test:
  stage: test
  script:
    - $tests = Get-ChildItem -Recurse -Filter '*Tests.dll' | Where-Object { $_.FullName -match 'bin.Release' }
    - vstest.console.exe $tests.FullName
`,
  'iOS-Fastlane': `${HEADER}# Test and ship an iOS app with fastlane on a macOS runner (shell executor with Xcode and Bundler). The lanes
# \`test\`, \`beta\` (TestFlight) and \`release\` (App Store) are yours; App Store Connect and match credentials are
# CI/CD variables.
variables:
  LC_ALL: "en_US.UTF-8"
  LANG: "en_US.UTF-8"

stages:
  - test
  - beta
  - release

before_script:
  - bundle install

test:
  stage: test
  script:
    - bundle exec fastlane test
  artifacts:
    when: always
    paths:
      - fastlane/test_output/

beta:
  stage: beta
  script:
    - bundle exec fastlane beta
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH

release:
  stage: release
  script:
    - bundle exec fastlane release
  rules:
    - if: $CI_COMMIT_TAG
      when: manual
`,
  npm: `${HEADER}# Test an npm package and publish it to the project's npm registry in GitLab when package.json changes on the
# default branch and its version is not published yet. Scope the package to the root namespace (@namespace/name).
image: node:14

stages:
  - test
  - deploy

test:
  stage: test
  script:
    - npm ci
    - npm test

publish:
  stage: deploy
  script:
    - npm config set "@$CI_PROJECT_ROOT_NAMESPACE:registry" "$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/npm/"
    - npm config set "$(echo "$CI_API_V4_URL" | sed -E 's#^https?:##')/projects/$CI_PROJECT_ID/packages/npm/:_authToken" "$CI_JOB_TOKEN"
    - NAME=$(node -p "require('./package.json').name")
    - VERSION=$(node -p "require('./package.json').version")
    - |
      if npm view "$NAME@$VERSION" version > /dev/null 2>&1; then
        echo "$NAME@$VERSION is already published"
      else
        npm publish
      fi
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      changes:
        - package.json
`,
  'Pages/Brunch': `${HEADER}# Build a Brunch site for production (into public/, Brunch's default) and publish it with GitLab Pages from the
# default branch.
image: node:14

cache:
  paths:
    - node_modules/

pages:
  stage: deploy
  script:
    - npm ci
    - npx brunch build --production
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Doxygen': `${HEADER}# Generate HTML documentation with Doxygen (from the Doxyfile, its output directory redirected) and publish it
# with GitLab Pages from the default branch.
image: alpine:3.12

pages:
  stage: deploy
  script:
    - apk add --no-cache doxygen graphviz
    - ( cat Doxyfile; echo "OUTPUT_DIRECTORY = build"; echo "HTML_OUTPUT = html" ) | doxygen -
    - mv build/html public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Gatsby': `${HEADER}# Build a Gatsby site and publish it with GitLab Pages from the default branch. For a project site set
# \`pathPrefix\` in gatsby-config.js to the project's path; --prefix-paths applies it.
image: node:14

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - node_modules/
    - .cache/

pages:
  stage: deploy
  script:
    - npm ci
    - npx gatsby build --prefix-paths
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Harp': `${HEADER}# Compile a Harp site into public/ and publish it with GitLab Pages from the default branch.
image: node:14

pages:
  stage: deploy
  script:
    - npm install --global harp
    - harp compile ./ public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Hexo': `${HEADER}# Generate a Hexo blog (into public/, Hexo's default) and publish it with GitLab Pages from the default branch.
image: node:14

cache:
  paths:
    - node_modules/

pages:
  stage: deploy
  script:
    - npm ci
    - npx hexo generate
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Hugo': `${HEADER}# Build a Hugo site: check that it builds on every branch, publish it with GitLab Pages from the default branch.
# Themes added as Git submodules are fetched too.
image: registry.gitlab.com/pages/hugo:latest

variables:
  GIT_SUBMODULE_STRATEGY: recursive

test:
  stage: test
  script:
    - hugo --destination build
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

pages:
  stage: deploy
  script:
    - hugo --minify
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Hyde': `${HEADER}# Generate a Hyde site into public/ and publish it with GitLab Pages from the default branch. Hyde runs on Python 2.
image: python:2.7

pages:
  stage: deploy
  script:
    - pip install hyde
    - hyde gen -d public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/JBake': `${HEADER}# Bake a JBake site into public/ and publish it with GitLab Pages from the default branch. JBake is installed
# with SDKMAN!.
image: openjdk:11-jdk

pages:
  stage: deploy
  script:
    - apt-get update -qq && apt-get install -y -qq zip unzip
    - curl -s "https://get.sdkman.io" | bash
    - source "$HOME/.sdkman/bin/sdkman-init.sh"
    - sdk install jbake
    - jbake -b . public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Jekyll': `${HEADER}# Build a Jekyll site with Bundler: check it on every branch, publish it with GitLab Pages from the default branch.
# Add vendor to \`exclude\` in _config.yml so the cached gems stay out of the site.
image: ruby:2.7

variables:
  JEKYLL_ENV: production
  BUNDLE_PATH: vendor/bundle

cache:
  paths:
    - vendor/bundle/

before_script:
  - gem install bundler --no-document
  - bundle install

test:
  stage: test
  script:
    - bundle exec jekyll build --destination build
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

pages:
  stage: deploy
  script:
    - bundle exec jekyll build --destination public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Jigsaw': `${HEADER}# Build a Jigsaw site for production and publish it with GitLab Pages from the default branch. Commit the compiled
# assets, or add a Node.js step that runs your asset build first.
image: php:7.4

cache:
  paths:
    - vendor/

pages:
  stage: deploy
  script:
    - apt-get update -qq && apt-get install -y -qq git unzip
    - curl -sS https://getcomposer.org/installer | php -- --install-dir=/usr/local/bin --filename=composer
    - composer install --no-progress --no-interaction
    - vendor/bin/jigsaw build production
    - mv build_production public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Lektor': `${HEADER}# Build a Lektor project into public/ and publish it with GitLab Pages from the default branch.
image: python:3.8

pages:
  stage: deploy
  script:
    - pip install lektor
    - lektor build --output-path public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Metalsmith': `${HEADER}# Build a Metalsmith site from metalsmith.json (set its "destination" to "public") and publish it with GitLab
# Pages from the default branch.
image: node:14

cache:
  paths:
    - node_modules/

pages:
  stage: deploy
  script:
    - npm ci
    - npx metalsmith
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Middleman': `${HEADER}# Build a Middleman site and publish it with GitLab Pages from the default branch.
image: ruby:2.7

variables:
  BUNDLE_PATH: vendor/bundle

cache:
  paths:
    - vendor/bundle/

pages:
  stage: deploy
  script:
    - apt-get update -qq && apt-get install -y -qq nodejs
    - bundle install
    - bundle exec middleman build
    - mv build public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Nanoc': `${HEADER}# Compile a Nanoc site, check its internal links on every branch and publish it with GitLab Pages from the default
# branch.
image: ruby:2.7

before_script:
  - bundle install
  - bundle exec nanoc compile

check:
  stage: test
  script:
    - bundle exec nanoc check ilinks
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

pages:
  stage: deploy
  script:
    - mv output public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Octopress': `${HEADER}# Generate an Octopress blog (into public/, Octopress's default) and publish it with GitLab Pages from the default
# branch.
image: ruby:2.7

pages:
  stage: deploy
  script:
    - bundle install
    - bundle exec rake generate
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Pelican': `${HEADER}# Build a Pelican site with its publishing settings and publish it with GitLab Pages from the default branch.
# requirements.txt lists pelican (and markdown, plugins...).
image: python:3.8

pages:
  stage: deploy
  script:
    - pip install -r requirements.txt
    - pelican content --settings publishconf.py --output public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/SwaggerUI': `${HEADER}# Publish an OpenAPI document (API_SPEC) with Swagger UI on GitLab Pages from the default branch.
image: node:14-alpine

variables:
  API_SPEC: "openapi.yaml"

pages:
  stage: deploy
  script:
    - npm install --no-save swagger-ui-dist@3
    - mkdir public
    - cp node_modules/swagger-ui-dist/swagger-ui.css node_modules/swagger-ui-dist/swagger-ui-bundle.js "$API_SPEC" public/
    - >-
      printf '<!doctype html><html><head><meta charset="utf-8"><title>%s</title><link rel="stylesheet" href="swagger-ui.css">
      </head><body><div id="api"></div><script src="swagger-ui-bundle.js"></script>
      <script>SwaggerUIBundle({ url: "%s", dom_id: "#api" });</script></body></html>'
      "$CI_PROJECT_TITLE" "$(basename "$API_SPEC")" > public/index.html
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Verify/Accessibility': `${HEADER}# Accessibility check of deployed pages with pa11y-ci. List the addresses, space-separated, in a11y_urls:
#
# include:
#   - template: Verify/Accessibility.gitlab-ci.yml
# variables:
#   a11y_urls: "https://example.com https://example.com/about"
#
# The job runs in the .post stage, after your deployments; its JSON report is kept even when pages fail.

a11y:
  stage: .post
  image: buildkite/puppeteer:latest
  script:
    - npm install --global pa11y-ci@2
    - echo '{"defaults":{"chromeLaunchConfig":{"args":["--no-sandbox"]}}}' > .pa11yci.json
    - mkdir -p reports
    - pa11y-ci --config .pa11yci.json --json $a11y_urls > reports/pa11y-ci.json
  artifacts:
    when: always
    paths:
      - reports/
  rules:
    - if: $a11y_urls
`,
  'Verify/FailFast': `${HEADER}# Fail fast for Ruby merge requests: before the rest of the pipeline, run only the RSpec files that match the Ruby
# files the merge request changes (spec/... for app/... and lib/...). Needs merge request pipelines.
#
# include:
#   - template: Verify/FailFast.gitlab-ci.yml

rspec-changed:
  stage: .pre
  image: ruby:2.7
  script:
    - bundle install
    - git fetch --depth=100 origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
    - |
      specs=""
      for file in $(git diff --name-only "origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME...HEAD" -- '*.rb'); do
        case "$file" in
          spec/*_spec.rb) candidate="$file" ;;
          app/*|lib/*) candidate="spec/$(echo "$file" | sed -e 's#^app/##' -e 's#.rb$#_spec.rb#')" ;;
          *) candidate="" ;;
        esac
        if [ -n "$candidate" ] && [ -f "$candidate" ]; then specs="$specs $candidate"; fi
      done
      if [ -n "$specs" ]; then bundle exec rspec $specs; else echo "No specs match the changes"; fi
  rules:
    - if: $CI_MERGE_REQUEST_IID
`,
  'Verify/Load-Performance-Testing': `${HEADER}# Load performance testing with k6: run the script K6_TEST_FILE (against your deployed app) after the rest of
# the pipeline and keep k6's summary as the load_performance report.
#
# include:
#   - template: Verify/Load-Performance-Testing.gitlab-ci.yml
# variables:
#   K6_TEST_FILE: tests/load.js

variables:
  K6_TEST_FILE: "tests/load.js"
  K6_OPTIONS: ""

load_performance:
  stage: .post
  image:
    name: loadimpact/k6:0.28.0
    entrypoint: [""]
  script:
    - k6 run $K6_OPTIONS --summary-export=load-performance.json "$K6_TEST_FILE"
  artifacts:
    reports:
      load_performance: load-performance.json
  rules:
    - if: $LOAD_PERFORMANCE_DISABLED
      when: never
    - if: $CI_COMMIT_BRANCH
`,
};
