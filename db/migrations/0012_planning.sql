ALTER TABLE "issues" ADD COLUMN "weight" integer;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "issue_type" text DEFAULT 'issue' NOT NULL;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "relative_position" integer;