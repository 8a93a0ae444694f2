CREATE TABLE "git_packs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"tips" text[] NOT NULL,
	"object_count" integer NOT NULL,
	"file_id" bigint NOT NULL,
	"oids_file_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_at" timestamp with time zone,
	CONSTRAINT "git_packs_file_id_unique" UNIQUE("file_id"),
	CONSTRAINT "git_packs_oids_file_id_unique" UNIQUE("oids_file_id")
);
--> statement-breakpoint
ALTER TABLE "git_packs" ADD CONSTRAINT "git_packs_project_id_repositories_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."repositories"("project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_packs" ADD CONSTRAINT "git_packs_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_packs" ADD CONSTRAINT "git_packs_oids_file_id_stored_files_id_fk" FOREIGN KEY ("oids_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "git_packs_current_idx" ON "git_packs" USING btree ("project_id") WHERE replaced_at IS NULL;--> statement-breakpoint
CREATE INDEX "git_packs_project_id_idx" ON "git_packs" USING btree ("project_id");--> statement-breakpoint
-- A pack's files go with its row (a replaced pack's purge, a project's deletion by cascade), as 0016's artifacts.
CREATE FUNCTION "git_packs_release_files"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "stored_files" WHERE "id" IN (OLD."file_id", OLD."oids_file_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "git_packs_release_files" AFTER DELETE ON "git_packs" FOR EACH ROW EXECUTE FUNCTION "git_packs_release_files"();
