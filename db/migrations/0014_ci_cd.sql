CREATE TABLE "ci_build_needs" (
	"id" serial PRIMARY KEY NOT NULL,
	"build_id" integer NOT NULL,
	"name" text NOT NULL,
	"artifacts" boolean DEFAULT true NOT NULL,
	CONSTRAINT "ci_build_needs_build_id_name_key" UNIQUE("build_id","name")
);
--> statement-breakpoint
CREATE TABLE "ci_build_trace_chunks" (
	"build_id" integer NOT NULL,
	"start_offset" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "ci_build_trace_chunks_build_id_start_offset_pk" PRIMARY KEY("build_id","start_offset")
);
--> statement-breakpoint
CREATE TABLE "ci_builds" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"pipeline_id" integer NOT NULL,
	"stage_id" integer NOT NULL,
	"type" text DEFAULT 'Ci::Build' NOT NULL,
	"name" text NOT NULL,
	"stage" text NOT NULL,
	"stage_idx" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"when" text DEFAULT 'on_success' NOT NULL,
	"allow_failure" boolean DEFAULT false NOT NULL,
	"scheduling_type" text DEFAULT 'stage' NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"yaml_variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tag_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"ref" text NOT NULL,
	"tag" boolean DEFAULT false NOT NULL,
	"start_in" text,
	"scheduled_at" timestamp with time zone,
	"user_id" integer,
	"runner_id" integer,
	"token_digest" text,
	"queued_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"erased_at" timestamp with time zone,
	"erased_by_id" integer,
	"retried" boolean DEFAULT false NOT NULL,
	"failure_reason" text,
	"exit_code" integer,
	"coverage" real,
	"target_url" text,
	"description" text,
	"environment" text,
	"artifacts_expire_at" timestamp with time zone,
	"lock_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_builds_status" CHECK ("ci_builds"."status" IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled')),
	CONSTRAINT "ci_builds_when" CHECK ("ci_builds"."when" IN ('on_success', 'on_failure', 'always', 'manual', 'delayed'))
);
--> statement-breakpoint
CREATE TABLE "ci_job_artifacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"job_id" integer NOT NULL,
	"file_type" text NOT NULL,
	"file_format" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"file_sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"expire_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_job_artifacts_job_id_file_type_key" UNIQUE("job_id","file_type")
);
--> statement-breakpoint
CREATE TABLE "ci_pipeline_variables" (
	"id" serial PRIMARY KEY NOT NULL,
	"pipeline_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"variable_type" text DEFAULT 'env_var' NOT NULL,
	CONSTRAINT "ci_pipeline_variables_pipeline_id_key_key" UNIQUE("pipeline_id","key"),
	CONSTRAINT "ci_pipeline_variables_variable_type" CHECK ("ci_pipeline_variables"."variable_type" IN ('env_var', 'file'))
);
--> statement-breakpoint
CREATE TABLE "ci_pipelines" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"sha" text NOT NULL,
	"before_sha" text,
	"ref" text NOT NULL,
	"tag" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"config_source" text DEFAULT 'repository_source' NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"yaml_errors" text,
	"failure_reason" text,
	"user_id" integer,
	"trigger_id" integer,
	"merge_request_id" integer,
	"protected" boolean DEFAULT false NOT NULL,
	"coverage" real,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"duration" integer,
	"committed_at" timestamp with time zone,
	"lock_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_pipelines_project_id_iid_key" UNIQUE("project_id","iid"),
	CONSTRAINT "ci_pipelines_status" CHECK ("ci_pipelines"."status" IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled')),
	CONSTRAINT "ci_pipelines_source" CHECK ("ci_pipelines"."source" IN ('unknown', 'push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event', 'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan'))
);
--> statement-breakpoint
CREATE TABLE "ci_runner_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"runner_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_runner_projects_runner_id_project_id_key" UNIQUE("runner_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "ci_runners" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_digest" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"run_untagged" boolean DEFAULT true NOT NULL,
	"tag_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"access_level" text DEFAULT 'not_protected' NOT NULL,
	"runner_type" text NOT NULL,
	"maximum_timeout" integer,
	"name" text,
	"version" text,
	"revision" text,
	"platform" text,
	"architecture" text,
	"ip_address" text,
	"contacted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_runners_token_digest_key" UNIQUE("token_digest"),
	CONSTRAINT "ci_runners_access_level" CHECK ("ci_runners"."access_level" IN ('not_protected', 'ref_protected'))
);
--> statement-breakpoint
CREATE TABLE "ci_stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"pipeline_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"lock_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_stages_pipeline_id_name_key" UNIQUE("pipeline_id","name"),
	CONSTRAINT "ci_stages_status" CHECK ("ci_stages"."status" IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'))
);
--> statement-breakpoint
CREATE TABLE "ci_triggers" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"owner_id" integer,
	"description" text NOT NULL,
	"token_digest" text NOT NULL,
	"token_prefix" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_triggers_token_digest_key" UNIQUE("token_digest"),
	CONSTRAINT "ci_triggers_description_length" CHECK (char_length("ci_triggers"."description") <= 255)
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"environment_id" integer NOT NULL,
	"ref" text NOT NULL,
	"tag" boolean DEFAULT false NOT NULL,
	"sha" text NOT NULL,
	"user_id" integer,
	"deployable_id" integer,
	"status" text DEFAULT 'created' NOT NULL,
	"on_stop" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deployments_project_id_iid_key" UNIQUE("project_id","iid"),
	CONSTRAINT "deployments_status" CHECK ("deployments"."status" IN ('created', 'running', 'success', 'failed', 'canceled', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"external_url" text,
	"environment_type" text,
	"state" text DEFAULT 'available' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "environments_project_id_name_key" UNIQUE("project_id","name"),
	CONSTRAINT "environments_project_id_slug_key" UNIQUE("project_id","slug"),
	CONSTRAINT "environments_state" CHECK ("environments"."state" IN ('available', 'stopped')),
	CONSTRAINT "environments_name_length" CHECK (char_length("environments"."name") <= 255)
);
--> statement-breakpoint
CREATE TABLE "metrics_dashboard_annotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"dashboard_path" text NOT NULL,
	"panel_xid" text,
	"description" text NOT NULL,
	"starting_at" timestamp with time zone NOT NULL,
	"ending_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "metrics_dashboard_annotations_description_length" CHECK (char_length("metrics_dashboard_annotations"."description") <= 255),
	CONSTRAINT "metrics_dashboard_annotations_path_length" CHECK (char_length("metrics_dashboard_annotations"."dashboard_path") <= 255),
	CONSTRAINT "metrics_dashboard_annotations_ending_after_starting" CHECK ("metrics_dashboard_annotations"."ending_at" IS NULL OR "metrics_dashboard_annotations"."ending_at" >= "metrics_dashboard_annotations"."starting_at")
);
--> statement-breakpoint
CREATE TABLE "dast_scanner_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"spider_timeout" integer,
	"target_timeout" integer,
	"scan_type" smallint DEFAULT 1 NOT NULL,
	"use_ajax_spider" boolean DEFAULT false NOT NULL,
	"show_debug_messages" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dast_scanner_profiles_project_id_name_key" UNIQUE("project_id","name"),
	CONSTRAINT "dast_scanner_profiles_name_length" CHECK (char_length("dast_scanner_profiles"."name") <= 255)
);
--> statement-breakpoint
CREATE TABLE "dast_site_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"target_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dast_site_profiles_project_id_name_key" UNIQUE("project_id","name"),
	CONSTRAINT "dast_site_profiles_name_length" CHECK (char_length("dast_site_profiles"."name") <= 255)
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "only_allow_merge_if_pipeline_succeeds" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "runners_token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ci_build_needs" ADD CONSTRAINT "ci_build_needs_build_id_ci_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."ci_builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_build_trace_chunks" ADD CONSTRAINT "ci_build_trace_chunks_build_id_ci_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."ci_builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_pipeline_id_ci_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."ci_pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_stage_id_ci_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."ci_stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_runner_id_ci_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."ci_runners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_erased_by_id_users_id_fk" FOREIGN KEY ("erased_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ADD CONSTRAINT "ci_job_artifacts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_job_artifacts" ADD CONSTRAINT "ci_job_artifacts_job_id_ci_builds_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."ci_builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_pipeline_variables" ADD CONSTRAINT "ci_pipeline_variables_pipeline_id_ci_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."ci_pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_pipelines" ADD CONSTRAINT "ci_pipelines_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_pipelines" ADD CONSTRAINT "ci_pipelines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_pipelines" ADD CONSTRAINT "ci_pipelines_trigger_id_ci_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."ci_triggers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_pipelines" ADD CONSTRAINT "ci_pipelines_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "public"."merge_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "ci_runner_projects_runner_id_ci_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."ci_runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "ci_runner_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_stages" ADD CONSTRAINT "ci_stages_pipeline_id_ci_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."ci_pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_stages" ADD CONSTRAINT "ci_stages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_triggers" ADD CONSTRAINT "ci_triggers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_triggers" ADD CONSTRAINT "ci_triggers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_deployable_id_ci_builds_id_fk" FOREIGN KEY ("deployable_id") REFERENCES "public"."ci_builds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_dashboard_annotations" ADD CONSTRAINT "metrics_dashboard_annotations_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dast_scanner_profiles" ADD CONSTRAINT "dast_scanner_profiles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dast_site_profiles" ADD CONSTRAINT "dast_site_profiles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ci_builds_pipeline_id_stage_idx_idx" ON "ci_builds" USING btree ("pipeline_id","stage_idx");--> statement-breakpoint
CREATE INDEX "ci_builds_project_id_id_idx" ON "ci_builds" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "ci_builds_stage_id_idx" ON "ci_builds" USING btree ("stage_id");--> statement-breakpoint
CREATE INDEX "ci_builds_runner_id_idx" ON "ci_builds" USING btree ("runner_id");--> statement-breakpoint
CREATE INDEX "ci_builds_pending_queue_idx" ON "ci_builds" USING btree ("id") WHERE "ci_builds"."status" = 'pending' AND "ci_builds"."type" = 'Ci::Build';--> statement-breakpoint
CREATE UNIQUE INDEX "ci_builds_token_digest_idx" ON "ci_builds" USING btree ("token_digest") WHERE "ci_builds"."token_digest" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ci_job_artifacts_project_id_idx" ON "ci_job_artifacts" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "ci_pipelines_project_id_sha_idx" ON "ci_pipelines" USING btree ("project_id","sha");--> statement-breakpoint
CREATE INDEX "ci_pipelines_project_id_ref_id_idx" ON "ci_pipelines" USING btree ("project_id","ref","id");--> statement-breakpoint
CREATE INDEX "ci_pipelines_project_id_status_idx" ON "ci_pipelines" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "ci_pipelines_merge_request_id_idx" ON "ci_pipelines" USING btree ("merge_request_id");--> statement-breakpoint
CREATE INDEX "ci_pipelines_user_id_idx" ON "ci_pipelines" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ci_runner_projects_project_id_idx" ON "ci_runner_projects" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "ci_triggers_project_id_idx" ON "ci_triggers" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "deployments_environment_id_id_idx" ON "deployments" USING btree ("environment_id","id");--> statement-breakpoint
CREATE INDEX "deployments_deployable_id_idx" ON "deployments" USING btree ("deployable_id");--> statement-breakpoint
CREATE INDEX "metrics_dashboard_annotations_environment_id_path_idx" ON "metrics_dashboard_annotations" USING btree ("environment_id","dashboard_path","starting_at");