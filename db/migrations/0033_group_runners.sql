CREATE TABLE "ci_runner_namespaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"runner_id" integer NOT NULL,
	"namespace_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_runner_namespaces_runner_id_key" UNIQUE("runner_id")
);
--> statement-breakpoint
ALTER TABLE "namespaces" ADD COLUMN "runners_token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "group_runners_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "ci_runner_namespaces" ADD CONSTRAINT "ci_runner_namespaces_runner_id_ci_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."ci_runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ci_runner_namespaces" ADD CONSTRAINT "ci_runner_namespaces_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ci_runner_namespaces_namespace_id_idx" ON "ci_runner_namespaces" USING btree ("namespace_id");