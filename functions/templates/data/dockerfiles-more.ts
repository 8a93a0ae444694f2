// More Dockerfile templates, written for this project: one for each name GitLab 13.6 (Nov 2020) lists under
// GET /templates/dockerfiles (vendor/Dockerfile) that dockerfiles.ts does not already have. The names are GitLab's,
// the Dockerfiles our own. All in the one category, "General" (the root); for catalog.ts to merge with dockerfiles.ts.
export const MORE_DOCKERFILES: Readonly<Record<string, string>> = {
  'Binary-alpine': `# A prebuilt binary (built in an earlier CI job) on Alpine, with CA certificates and time zone data.
FROM alpine:3.12

RUN apk add --no-cache ca-certificates tzdata
COPY ./app /usr/local/bin/app
RUN chmod +x /usr/local/bin/app
USER nobody

ENTRYPOINT ["app"]
`,
  'Binary-scratch': `# A statically linked binary on an empty image; CA certificates come from a throwaway Alpine stage.
FROM alpine:3.12 AS certs
RUN apk add --no-cache ca-certificates

FROM scratch
COPY --from=certs /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY ./app /app
USER 65534

ENTRYPOINT ["/app"]
`,
  'Golang-alpine': `# Build and run a Go program on Alpine, one stage (keeps the toolchain: handy for debugging).
FROM golang:1.15-alpine

WORKDIR /go/src/app
RUN apk add --no-cache git ca-certificates

COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -o /usr/local/bin/app .

USER nobody
CMD ["app"]
`,
  'Golang-scratch': `# Compile a static Go binary, then ship it alone on an empty image.
FROM golang:1.15-alpine AS build
RUN apk add --no-cache ca-certificates
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -ldflags="-s -w" -o /out/app .

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /out/app /app
USER 65534
ENTRYPOINT ["/app"]
`,
  HTTPd: `# Serve the repository's static files with the Apache HTTP Server.
FROM httpd:2.4-alpine

COPY ./public/ /usr/local/apache2/htdocs/
EXPOSE 80
`,
  'Node-alpine': `# A Node.js service on Alpine: install production dependencies first so that layer is cached.
FROM node:14-alpine

WORKDIR /usr/src/app
ENV NODE_ENV=production

COPY package*.json ./
RUN npm ci --only=production && npm cache clean --force
COPY . .

USER node
EXPOSE 3000
CMD ["npm", "start"]
`,
  OpenJDK: `# Build a jar with Maven, run it on a JRE.
FROM maven:3.6-openjdk-11 AS build
WORKDIR /build
COPY pom.xml ./
RUN mvn -B dependency:go-offline
COPY src ./src
RUN mvn -B package -DskipTests && cp target/*.jar /build/app.jar

FROM openjdk:11-jre-slim
WORKDIR /app
COPY --from=build /build/app.jar ./app.jar
USER nobody
EXPOSE 8080
CMD ["java", "-jar", "app.jar"]
`,
  'OpenJDK-alpine': `# Run a jar built in an earlier CI job on a small Alpine-based JRE.
FROM adoptopenjdk/openjdk11:jre-11.0.9_11-alpine

WORKDIR /app
COPY target/*.jar ./app.jar
USER nobody

EXPOSE 8080
CMD ["java", "-XX:+UseContainerSupport", "-jar", "app.jar"]
`,
  PHP: `# A PHP application served by Apache, with Composer dependencies and common extensions.
FROM php:7.4-apache

RUN apt-get update \\
  && apt-get install -y --no-install-recommends libzip-dev unzip \\
  && docker-php-ext-install pdo_mysql zip opcache \\
  && rm -rf /var/lib/apt/lists/*
COPY --from=composer:2 /usr/bin/composer /usr/bin/composer

WORKDIR /var/www/html
COPY composer.json composer.lock ./
RUN composer install --no-dev --no-scripts --no-autoloader --prefer-dist
COPY . .
RUN composer dump-autoload --optimize && chown -R www-data:www-data /var/www/html

EXPOSE 80
`,
  'Python-alpine': `# A Python application on Alpine; build tools are installed only for the pip step.
FROM python:3.9-alpine

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1

COPY requirements.txt ./
RUN apk add --no-cache --virtual .build-deps gcc musl-dev libffi-dev \\
  && pip install --no-cache-dir -r requirements.txt \\
  && apk del .build-deps
COPY . .

USER nobody
CMD ["python", "app.py"]
`,
  Python2: `# A legacy Python 2.7 application (Python 2 reached end of life in January 2020).
FROM python:2.7-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1

COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .

USER nobody
CMD ["python", "app.py"]
`,
  Ruby: `# A Ruby (Rack / Rails) application: gems first, then the code.
FROM ruby:2.7

RUN apt-get update \\
  && apt-get install -y --no-install-recommends nodejs \\
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
ENV RAILS_ENV=production RACK_ENV=production
COPY Gemfile Gemfile.lock ./
RUN bundle config set without 'development test' && bundle install --jobs 4
COPY . .

EXPOSE 3000
CMD ["bundle", "exec", "rackup", "--host", "0.0.0.0", "--port", "3000"]
`,
  'Ruby-alpine': `# A Ruby application on Alpine; native gem build tools are removed after bundle install.
FROM ruby:2.7-alpine

WORKDIR /app
ENV RACK_ENV=production
COPY Gemfile Gemfile.lock ./
RUN apk add --no-cache --virtual .build-deps build-base \\
  && bundle config set without 'development test' \\
  && bundle install --jobs 4 \\
  && apk del .build-deps
COPY . .

USER nobody
EXPOSE 9292
CMD ["bundle", "exec", "rackup", "--host", "0.0.0.0"]
`,
  Rust: `# Build a release binary with Cargo (the binary is assumed to be named app), run it on a slim Debian image.
FROM rust:1.47 AS build
WORKDIR /usr/src/app
COPY . .
RUN cargo build --release && cp target/release/app /usr/local/bin/app

FROM debian:buster-slim
RUN apt-get update \\
  && apt-get install -y --no-install-recommends ca-certificates \\
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/app /usr/local/bin/app
USER nobody
EXPOSE 8080
CMD ["app"]
`,
  Swift: `# Build a Swift package in release mode (executable product app), run it on the slim Swift runtime image.
FROM swift:5.3 AS build
WORKDIR /build
COPY Package.* ./
RUN swift package resolve
COPY . .
RUN swift build -c release && cp "$(swift build -c release --show-bin-path)/app" /build/app

FROM swift:5.3-slim
WORKDIR /app
COPY --from=build /build/app ./app
USER nobody
EXPOSE 8080
CMD ["./app"]
`,
};
