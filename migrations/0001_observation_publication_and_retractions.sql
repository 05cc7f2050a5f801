CREATE TABLE `data_retractions` (
	`import_id` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`retracted_at` integer NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `data_imports`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `observations` ADD `published_on` text;