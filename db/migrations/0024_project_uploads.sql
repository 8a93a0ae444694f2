CREATE TABLE "project_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"secret" text NOT NULL,
	"filename" text NOT NULL,
	"file_id" bigint NOT NULL,
	"size" bigint NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_uploads" ADD CONSTRAINT "project_uploads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_uploads" ADD CONSTRAINT "project_uploads_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_uploads" ADD CONSTRAINT "project_uploads_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_uploads_project_secret_idx" ON "project_uploads" USING btree ("project_id","secret");--> statement-breakpoint
CREATE INDEX "project_uploads_file_idx" ON "project_uploads" USING btree ("file_id");--> statement-breakpoint
CREATE TRIGGER "project_uploads_release_file" AFTER DELETE ON "project_uploads" FOR EACH ROW EXECUTE FUNCTION "stored_files_release"();
