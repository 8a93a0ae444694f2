ALTER TABLE "git_packs" ADD COLUMN "trees_file_id" bigint;--> statement-breakpoint
ALTER TABLE "git_packs" ADD COLUMN "trees_object_count" integer;--> statement-breakpoint
ALTER TABLE "git_packs" ADD CONSTRAINT "git_packs_trees_file_id_stored_files_id_fk" FOREIGN KEY ("trees_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_packs" ADD CONSTRAINT "git_packs_trees_file_id_unique" UNIQUE("trees_file_id");--> statement-breakpoint
-- The blob-less pack's file goes with its row too.
CREATE OR REPLACE FUNCTION "git_packs_release_files"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "stored_files" WHERE "id" IN (OLD."file_id", OLD."oids_file_id", OLD."trees_file_id");
  RETURN NULL;
END
$$;
