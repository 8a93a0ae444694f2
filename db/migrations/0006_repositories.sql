CREATE TABLE "git_commit_paths" (
	"pool_id" integer NOT NULL,
	"commit_oid" "bytea" NOT NULL,
	"path" "bytea" NOT NULL,
	CONSTRAINT "git_commit_paths_pool_id_commit_oid_path_pk" PRIMARY KEY("pool_id","commit_oid","path")
);
--> statement-breakpoint
CREATE TABLE "git_commits" (
	"pool_id" integer NOT NULL,
	"oid" "bytea" NOT NULL,
	"tree_oid" "bytea" NOT NULL,
	"parent_oids" "bytea"[] NOT NULL,
	"generation" integer NOT NULL,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"authored_at" timestamp with time zone NOT NULL,
	"author_tz" text NOT NULL,
	"committer_name" text NOT NULL,
	"committer_email" text NOT NULL,
	"committed_at" timestamp with time zone NOT NULL,
	"committer_tz" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "git_commits_pool_id_oid_pk" PRIMARY KEY("pool_id","oid")
);
--> statement-breakpoint
CREATE TABLE "git_objects" (
	"pool_id" integer NOT NULL,
	"oid" "bytea" NOT NULL,
	"type" smallint NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "git_objects_pool_id_oid_pk" PRIMARY KEY("pool_id","oid")
);
--> statement-breakpoint
CREATE TABLE "git_refs" (
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"oid" "bytea" NOT NULL,
	CONSTRAINT "git_refs_project_id_name_pk" PRIMARY KEY("project_id","name")
);
--> statement-breakpoint
CREATE TABLE "git_tree_entries" (
	"pool_id" integer NOT NULL,
	"tree_oid" "bytea" NOT NULL,
	"name" "bytea" NOT NULL,
	"mode" text NOT NULL,
	"oid" "bytea" NOT NULL,
	CONSTRAINT "git_tree_entries_pool_id_tree_oid_name_pk" PRIMARY KEY("pool_id","tree_oid","name")
);
--> statement-breakpoint
CREATE TABLE "object_pools" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repositories" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"pool_id" integer NOT NULL,
	"default_branch" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "git_commit_paths" ADD CONSTRAINT "git_commit_paths_pool_id_object_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."object_pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_commits" ADD CONSTRAINT "git_commits_pool_id_object_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."object_pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_objects" ADD CONSTRAINT "git_objects_pool_id_object_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."object_pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_refs" ADD CONSTRAINT "git_refs_project_id_repositories_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."repositories"("project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "git_tree_entries" ADD CONSTRAINT "git_tree_entries_pool_id_object_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."object_pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_pool_id_object_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."object_pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "git_commit_paths_pool_id_path_idx" ON "git_commit_paths" USING btree ("pool_id","path");--> statement-breakpoint
CREATE INDEX "repositories_pool_id_idx" ON "repositories" USING btree ("pool_id");--> statement-breakpoint
-- Written by hand below drizzle-kit's output: the failure of a ref compare-and-swap. A ref update is one statement
-- of the write's batch (db/queries/repositories.ts) that calls this when its guarded INSERT/UPDATE/DELETE touched no
-- row, so the whole batch (objects, derived rows, ref) rolls back. A function, VOLATILE, because an expression
-- that fails on its own (1/0) may be folded when the statement is planned and fail every update.
CREATE FUNCTION "git_ref_conflict"("ref_name" text) RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'git ref % was changed concurrently', ref_name USING ERRCODE = 'GL409';
END
$$;
