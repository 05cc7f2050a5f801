ALTER TABLE "road_networks" ADD COLUMN "status" text DEFAULT 'promoted' NOT NULL;--> statement-breakpoint
ALTER TABLE "road_networks" ADD COLUMN "promoted_at" bigint;--> statement-breakpoint
ALTER TABLE "road_networks" ADD COLUMN "report" text;--> statement-breakpoint
ALTER TABLE "road_networks" ADD COLUMN "retracted_at" bigint;--> statement-breakpoint
ALTER TABLE "road_networks" ADD COLUMN "retraction_reason" text;