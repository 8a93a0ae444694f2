CREATE TABLE "merge_request_assignees" (
	"merge_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "merge_request_assignees_merge_request_id_user_id_pk" PRIMARY KEY("merge_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_request_diffs" (
	"id" serial PRIMARY KEY NOT NULL,
	"merge_request_id" integer NOT NULL,
	"base_commit_sha" text,
	"start_commit_sha" text NOT NULL,
	"head_commit_sha" text NOT NULL,
	"state" text NOT NULL,
	"commits_count" integer NOT NULL,
	"files_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_request_reviewers" (
	"merge_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "merge_request_reviewers_merge_request_id_user_id_pk" PRIMARY KEY("merge_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"target_project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"source_project_id" integer,
	"source_branch" text NOT NULL,
	"target_branch" text NOT NULL,
	"author_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"merge_status" text DEFAULT 'unchecked' NOT NULL,
	"milestone_id" integer,
	"discussion_locked" boolean,
	"merge_when_pipeline_succeeds" boolean DEFAULT false NOT NULL,
	"merge_user_id" integer,
	"merge_params" text,
	"squash" boolean DEFAULT false NOT NULL,
	"force_remove_source_branch" boolean DEFAULT false NOT NULL,
	"allow_collaboration" boolean DEFAULT false NOT NULL,
	"merged_by_id" integer,
	"merged_at" timestamp with time zone,
	"closed_by_id" integer,
	"closed_at" timestamp with time zone,
	"merge_commit_sha" text,
	"squash_commit_sha" text,
	"merge_error" text,
	"updated_by_id" integer,
	"time_estimate" integer DEFAULT 0 NOT NULL,
	"total_time_spent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_requests_closing_issues" (
	"merge_request_id" integer NOT NULL,
	"issue_id" integer NOT NULL,
	CONSTRAINT "merge_requests_closing_issues_merge_request_id_issue_id_pk" PRIMARY KEY("merge_request_id","issue_id")
);
--> statement-breakpoint
ALTER TABLE "timelogs" ALTER COLUMN "issue_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "merge_method" text DEFAULT 'merge' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "remove_source_branch_after_merge" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "only_allow_merge_if_all_discussions_are_resolved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "timelogs" ADD COLUMN "merge_request_id" integer;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "position" jsonb;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "resolved_by_id" integer;--> statement-breakpoint
ALTER TABLE "merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_request_diffs" ADD CONSTRAINT "merge_request_diffs_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_target_project_id_projects_id_fk" FOREIGN KEY ("target_project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_source_project_id_projects_id_fk" FOREIGN KEY ("source_project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_merge_user_id_users_id_fk" FOREIGN KEY ("merge_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_merged_by_id_users_id_fk" FOREIGN KEY ("merged_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests_closing_issues" ADD CONSTRAINT "merge_requests_closing_issues_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests_closing_issues" ADD CONSTRAINT "merge_requests_closing_issues_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merge_request_assignees_user_id_idx" ON "merge_request_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "merge_request_diffs_merge_request_id_idx" ON "merge_request_diffs" USING btree ("merge_request_id","id");--> statement-breakpoint
CREATE INDEX "merge_request_reviewers_user_id_idx" ON "merge_request_reviewers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merge_requests_target_project_id_iid_idx" ON "merge_requests" USING btree ("target_project_id","iid");--> statement-breakpoint
CREATE INDEX "merge_requests_target_project_id_state_id_idx" ON "merge_requests" USING btree ("target_project_id","state","id");--> statement-breakpoint
CREATE INDEX "merge_requests_author_id_idx" ON "merge_requests" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "merge_requests_milestone_id_idx" ON "merge_requests" USING btree ("milestone_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merge_requests_open_source_branch_idx" ON "merge_requests" USING btree ("target_project_id","source_project_id","source_branch") WHERE "merge_requests"."state" IN ('opened', 'locked');--> statement-breakpoint
CREATE INDEX "merge_requests_source_idx" ON "merge_requests" USING btree ("source_project_id","source_branch") WHERE "merge_requests"."state" IN ('opened', 'locked');--> statement-breakpoint
CREATE INDEX "merge_requests_target_branch_idx" ON "merge_requests" USING btree ("target_project_id","target_branch") WHERE "merge_requests"."state" IN ('opened', 'locked');--> statement-breakpoint
CREATE INDEX "merge_requests_closing_issues_issue_id_idx" ON "merge_requests_closing_issues" USING btree ("issue_id");--> statement-breakpoint
ALTER TABLE "timelogs" ADD CONSTRAINT "timelogs_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "timelogs_merge_request_id_idx" ON "timelogs" USING btree ("merge_request_id");--> statement-breakpoint
ALTER TABLE "timelogs" ADD CONSTRAINT "timelogs_one_target" CHECK (("timelogs"."issue_id" IS NULL) <> ("timelogs"."merge_request_id" IS NULL));