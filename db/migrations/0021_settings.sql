ALTER TABLE "users" ADD COLUMN "skype" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "linkedin" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "twitter" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "theme_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "color_scheme_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "shared_runners_minutes_limit" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "extra_shared_runners_minutes_limit" integer;--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "issues_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "repository_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "merge_requests_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "forking_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "wiki_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "builds_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "snippets_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "pages_access_level" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "shared_runners_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "public_builds" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;