// .gitlab-ci.yml templates written for this project (GitLab ships its own under lib/gitlab/ci/templates; these are
// our own, smaller). Keys are paths under the template root without `.gitlab-ci.yml`: the root is GitLab's "General"
// category, `Pages/` "Pages"; `Security/` is no listed category (reached by `include: template:` and, for SAST, by
// name). Job names and report types are GitLab's (`sast`, `dast`), so pipelines and the security features that look
// for them work with these. Loaded by templates/catalog.ts on first use.
const HEADER = '# This file is a template, and might need editing before it works on your project.\n';

export const GITLAB_CI_YMLS: Readonly<Record<string, string>> = {
  Bash: `${HEADER}# A pipeline for shell scripts: check them with ShellCheck, then run the test script.
image: koalaman/shellcheck-alpine:stable

stages:
  - test

shellcheck:
  stage: test
  script:
    - find . -name '*.sh' -not -path './.git/*' -exec shellcheck {} +

run-tests:
  stage: test
  image: bash:latest
  script:
    - bash ./test.sh
  rules:
    - exists:
        - test.sh
`,
  DAST: `${HEADER}# Dynamic application security testing of a running site.
#
# Add a \`dast\` stage after your deploy stage, and give the address to scan in DAST_WEBSITE (or write it to
# environment_url.txt in an earlier job):
#
# stages:
#   - build
#   - test
#   - deploy
#   - dast
#
# include:
#   - template: DAST.gitlab-ci.yml

variables:
  DAST_VERSION: 1
  SECURE_ANALYZERS_PREFIX: "registry.gitlab.com/gitlab-org/security-products/analyzers"

dast:
  stage: dast
  image:
    name: "$SECURE_ANALYZERS_PREFIX/dast:$DAST_VERSION"
  variables:
    GIT_STRATEGY: none
  allow_failure: true
  script:
    - export DAST_WEBSITE=\${DAST_WEBSITE:-$(cat environment_url.txt)}
    - /analyze
  artifacts:
    reports:
      dast: gl-dast-report.json
  rules:
    - if: $DAST_DISABLED
      when: never
    - if: $CI_DEFAULT_BRANCH != $CI_COMMIT_REF_NAME && $REVIEW_DISABLED
      when: never
    - if: $CI_COMMIT_BRANCH
`,
  Docker: `${HEADER}# Build an image with Docker-in-Docker and push it to the project's container registry, tagged with the branch
# name (the default branch's image is also tagged latest).
image: docker:19.03.12

services:
  - docker:19.03.12-dind

stages:
  - build

docker-build:
  stage: build
  before_script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"
  script:
    - docker build --pull -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG" .
    - docker push "$CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG"
    - |
      if [ "$CI_COMMIT_BRANCH" = "$CI_DEFAULT_BRANCH" ]; then
        docker tag "$CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG" "$CI_REGISTRY_IMAGE:latest"
        docker push "$CI_REGISTRY_IMAGE:latest"
      fi
  rules:
    - if: $CI_COMMIT_BRANCH
      exists:
        - Dockerfile
`,
  Go: `${HEADER}# Vet, test and build a Go module.
image: golang:1.15

stages:
  - test
  - build

format:
  stage: test
  script:
    - test -z "$(gofmt -l .)"
    - go vet ./...

test:
  stage: test
  script:
    - go test -race -coverprofile=coverage.out ./...
    - go tool cover -func=coverage.out

build:
  stage: build
  script:
    - mkdir -p bin
    - go build -o bin/ ./...
  artifacts:
    paths:
      - bin/
`,
  Nodejs: `${HEADER}# Install with npm, then lint and test. node_modules is cached per branch.
image: node:14

cache:
  key: $CI_COMMIT_REF_SLUG
  paths:
    - node_modules/

stages:
  - test

before_script:
  - npm ci

lint:
  stage: test
  script:
    - npm run lint --if-present

test:
  stage: test
  script:
    - npm test
`,
  Python: `${HEADER}# Test a Python package in a virtual environment; pip's downloads are cached.
image: python:3.9

variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip
    - venv/

stages:
  - test

before_script:
  - python -m venv venv
  - source venv/bin/activate
  - pip install -r requirements.txt

test:
  stage: test
  script:
    - python -m pytest
`,
  'Pages/HTML': `${HEADER}# Publish the static files in public/ with GitLab Pages from the default branch.
pages:
  stage: deploy
  script:
    - echo "Publishing the public/ directory"
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Security/SAST': `${HEADER}# Static application security testing of the repository's source.
#
# include:
#   - template: Security/SAST.gitlab-ci.yml
#
# The job runs in the \`test\` stage; set SAST_DISABLED to turn it off, SAST_EXCLUDED_PATHS to skip paths.

variables:
  SECURE_ANALYZERS_PREFIX: "registry.gitlab.com/gitlab-org/security-products/analyzers"
  SAST_ANALYZER_IMAGE_TAG: 2
  SAST_EXCLUDED_PATHS: "spec, test, tests, tmp"

sast:
  stage: test
  image:
    name: "$SECURE_ANALYZERS_PREFIX/semgrep:$SAST_ANALYZER_IMAGE_TAG"
  allow_failure: true
  script:
    - /analyzer run
  artifacts:
    reports:
      sast: gl-sast-report.json
  rules:
    - if: $SAST_DISABLED
      when: never
    - if: $CI_COMMIT_BRANCH
`,
};
