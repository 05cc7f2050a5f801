ALTER TABLE `road_networks` ADD `status` text DEFAULT 'promoted' NOT NULL;--> statement-breakpoint
ALTER TABLE `road_networks` ADD `promoted_at` integer;--> statement-breakpoint
ALTER TABLE `road_networks` ADD `report` text;--> statement-breakpoint
ALTER TABLE `road_networks` ADD `retracted_at` integer;--> statement-breakpoint
ALTER TABLE `road_networks` ADD `retraction_reason` text;