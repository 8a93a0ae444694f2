CREATE TABLE "deploy_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"name" text NOT NULL,
	"username" text,
	"token_digest" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deploy_tokens_one_owner" CHECK (("deploy_tokens"."project_id" IS NULL) <> ("deploy_tokens"."group_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "deploy_tokens" ADD CONSTRAINT "deploy_tokens_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_tokens" ADD CONSTRAINT "deploy_tokens_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_tokens_digest_idx" ON "deploy_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "deploy_tokens_project_idx" ON "deploy_tokens" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "deploy_tokens_group_idx" ON "deploy_tokens" USING btree ("group_id");