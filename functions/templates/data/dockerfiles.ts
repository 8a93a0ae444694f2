// Dockerfile templates written for this project (GitLab ships its own under vendor/Dockerfile; these are our own).
// All in GitLab's one category, "General" (the root). Loaded by templates/catalog.ts on first use.
export const DOCKERFILES: Readonly<Record<string, string>> = {
  Binary: `# A prebuilt binary on a small base image: build it in an earlier CI job, then copy it in.
FROM alpine:3.12

RUN apk add --no-cache ca-certificates
COPY ./app /usr/local/bin/app
USER nobody

CMD ["app"]
`,
  Golang: `# Build in the Go image, run the static binary on a minimal one.
FROM golang:1.15-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/app .

FROM alpine:3.12
RUN apk add --no-cache ca-certificates
COPY --from=build /out/app /usr/local/bin/app
USER nobody
CMD ["app"]
`,
  Node: `# A Node.js service: production dependencies only, run as the unprivileged node user.
FROM node:14-alpine

WORKDIR /usr/src/app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
RUN npm ci --only=production
COPY . .

USER node
EXPOSE 3000
CMD ["node", "index.js"]
`,
  Python: `# A Python application with its requirements installed first, so the layer is reused while they do not change.
FROM python:3.9-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1

COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .

USER nobody
CMD ["python", "app.py"]
`,
};
