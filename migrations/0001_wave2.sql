CREATE TABLE `account_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`account_id` text NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`detail` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_audit_at` ON `account_audit` (`at`);--> statement-breakpoint
CREATE INDEX `account_audit_account_at` ON `account_audit` (`account_id`,`at`);--> statement-breakpoint
CREATE TABLE `data_retractions` (
	`import_id` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`retracted_at` integer NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `data_imports`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `road_networks` (
	`version` text PRIMARY KEY NOT NULL,
	`file_name` text NOT NULL,
	`file_sha256` text NOT NULL,
	`imported_at` integer NOT NULL,
	`network` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `observations` ADD `published_on` text;