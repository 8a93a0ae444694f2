CREATE TABLE "redirect_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "redirect_routes" ADD CONSTRAINT "redirect_routes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "redirect_routes_path_lower_idx" ON "redirect_routes" USING btree (lower("path"));--> statement-breakpoint
CREATE INDEX "redirect_routes_project_id_idx" ON "redirect_routes" USING btree ("project_id");--> statement-breakpoint
-- A project whose full path changes (its rename, its transfer, its group's or owner's rename) keeps its old path as a
-- redirect; a case-only change is no move. A project being deleted frees its path with a suffix: no redirect.
CREATE FUNCTION "projects_record_redirect"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "redirect_routes" ("project_id", "path") VALUES (NEW."id", OLD."path_with_namespace")
  ON CONFLICT (lower("path")) DO UPDATE SET "project_id" = EXCLUDED."project_id", "created_at" = now();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "projects_record_redirect" AFTER UPDATE OF "path_with_namespace" ON "projects" FOR EACH ROW
  WHEN (lower(OLD."path_with_namespace") <> lower(NEW."path_with_namespace") AND OLD."deleted_at" IS NULL AND NEW."deleted_at" IS NULL)
  EXECUTE FUNCTION "projects_record_redirect"();--> statement-breakpoint
-- A project at a path that redirected elsewhere takes it over.
CREATE FUNCTION "projects_take_redirected_path"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "redirect_routes" WHERE lower("path") = lower(NEW."path_with_namespace");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "projects_take_redirected_path" AFTER INSERT OR UPDATE OF "path_with_namespace" ON "projects" FOR EACH ROW
  EXECUTE FUNCTION "projects_take_redirected_path"();
