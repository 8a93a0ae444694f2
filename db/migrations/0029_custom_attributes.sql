CREATE TABLE "custom_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"namespace_id" integer,
	"project_id" integer,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_attributes_one_owner" CHECK (num_nonnulls("custom_attributes"."user_id", "custom_attributes"."namespace_id", "custom_attributes"."project_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_attributes_user_key_idx" ON "custom_attributes" USING btree ("user_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_attributes_namespace_key_idx" ON "custom_attributes" USING btree ("namespace_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_attributes_project_key_idx" ON "custom_attributes" USING btree ("project_id","key");