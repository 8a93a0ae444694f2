CREATE TABLE "feature_gates" (
	"id" serial PRIMARY KEY NOT NULL,
	"feature_key" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_gates_feature_key_key_value_key" UNIQUE("feature_key","key","value")
);
--> statement-breakpoint
CREATE TABLE "features" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "features_key_key" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"project_id" integer,
	"namespace_id" integer,
	"level" text NOT NULL,
	"new_note" boolean,
	"new_issue" boolean,
	"reopen_issue" boolean,
	"close_issue" boolean,
	"reassign_issue" boolean,
	"issue_due" boolean,
	"new_merge_request" boolean,
	"push_to_merge_request" boolean,
	"reopen_merge_request" boolean,
	"close_merge_request" boolean,
	"reassign_merge_request" boolean,
	"merge_merge_request" boolean,
	"failed_pipeline" boolean,
	"fixed_pipeline" boolean,
	"success_pipeline" boolean,
	"moved_project" boolean,
	"new_epic" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_user_source_key" UNIQUE NULLS NOT DISTINCT("user_id","project_id","namespace_id"),
	CONSTRAINT "notification_settings_one_source" CHECK ("notification_settings"."project_id" IS NULL OR "notification_settings"."namespace_id" IS NULL),
	CONSTRAINT "notification_settings_level" CHECK ("notification_settings"."level" IN ('disabled', 'participating', 'watch', 'global', 'mention', 'custom'))
);
--> statement-breakpoint
CREATE TABLE "project_error_tracking_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"integrated" boolean DEFAULT false NOT NULL,
	"api_url" text,
	"encrypted_token" text,
	"project_name" text,
	"organization_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notification_email" text;--> statement-breakpoint
ALTER TABLE "feature_gates" ADD CONSTRAINT "feature_gates_feature_key_features_key_fk" FOREIGN KEY ("feature_key") REFERENCES "public"."features"("key") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_error_tracking_settings" ADD CONSTRAINT "project_error_tracking_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_settings_project_id_idx" ON "notification_settings" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "notification_settings_namespace_id_idx" ON "notification_settings" USING btree ("namespace_id");