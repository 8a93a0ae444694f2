CREATE TABLE "protected_branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"push_access_level" smallint NOT NULL,
	"merge_access_level" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "protected_branches" ADD CONSTRAINT "protected_branches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "protected_branches_project_id_name_idx" ON "protected_branches" USING btree ("project_id","name");--> statement-breakpoint
-- Repositories made before this table had their default branch protected by rule (maintainers push and merge):
-- the same protection as rows, so nothing changes for them.
INSERT INTO "protected_branches" ("project_id", "name", "push_access_level", "merge_access_level")
SELECT "project_id", "default_branch", 40, 40 FROM "repositories" WHERE "default_branch" IS NOT NULL;
