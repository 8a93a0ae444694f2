CREATE TABLE "stored_file_chunks" (
	"file_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "stored_file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"size" bigint,
	"sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ADD COLUMN "file_id" bigint;--> statement-breakpoint
ALTER TABLE "stored_file_chunks" ADD CONSTRAINT "stored_file_chunks_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_created_at_idx" ON "stored_files" USING btree ("created_at");--> statement-breakpoint
-- Hand-added: the artifacts stored so far move into chunks of 1 MiB (functions/lib/stored-files.ts CHUNK_SIZE)
-- before their column goes, and an artifact's file goes with the artifact (erase, or a cascade from its job or
-- project), which a foreign key cannot say from this side.
UPDATE "ci_job_artifacts" SET "file_id" = nextval(pg_get_serial_sequence('stored_files', 'id'));--> statement-breakpoint
INSERT INTO "stored_files" ("id", "size", "sha256", "created_at") SELECT "file_id", "size", "file_sha256", "created_at" FROM "ci_job_artifacts";--> statement-breakpoint
INSERT INTO "stored_file_chunks" ("file_id", "seq", "data")
  SELECT a."file_id", s, substring(a."content" FROM s * 1048576 + 1 FOR 1048576)
  FROM "ci_job_artifacts" a, generate_series(0, greatest(0, (octet_length(a."content") - 1) / 1048576)) s;--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ALTER COLUMN "file_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" DROP COLUMN "content";--> statement-breakpoint
CREATE FUNCTION "stored_files_release"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "stored_files" WHERE "id" = OLD."file_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ci_job_artifacts_release_file" AFTER DELETE ON "ci_job_artifacts" FOR EACH ROW EXECUTE FUNCTION "stored_files_release"();--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ADD CONSTRAINT "ci_job_artifacts_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ADD CONSTRAINT "ci_job_artifacts_file_id_key" UNIQUE("file_id");