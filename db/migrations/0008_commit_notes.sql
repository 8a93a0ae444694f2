ALTER TABLE "notes" ALTER COLUMN "noteable_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "commit_id" text;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "line_code" text;--> statement-breakpoint
CREATE INDEX "notes_commit_idx" ON "notes" USING btree ("project_id","commit_id","created_at","id") WHERE "notes"."commit_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_noteable_key" CHECK (CASE WHEN "notes"."noteable_type" = 'Commit' THEN "notes"."commit_id" IS NOT NULL AND "notes"."project_id" IS NOT NULL AND "notes"."noteable_id" IS NULL ELSE "notes"."noteable_id" IS NOT NULL AND "notes"."commit_id" IS NULL END);