CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`tier` text DEFAULT 'explorer' NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email_unique` ON `accounts` (`email`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`digest` text NOT NULL,
	`display_id` text NOT NULL,
	`auth_obj_id` text NOT NULL,
	`scopes` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_digest_unique` ON `api_keys` (`digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_auth_obj_id_unique` ON `api_keys` (`auth_obj_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_one_active` ON `api_keys` (`account_id`) WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE TABLE `data_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`file_name` text NOT NULL,
	`file_sha256` text NOT NULL,
	`imported_at` integer NOT NULL,
	`rows_added` integer NOT NULL,
	`rows_skipped` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `monthly_usage` (
	`account_id` text NOT NULL,
	`month` text NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `month`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `observations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`series_id` text NOT NULL,
	`observed_on` text NOT NULL,
	`value` real NOT NULL,
	`import_id` text NOT NULL,
	`fetched_at` integer NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `data_imports`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `observations_series_date_import` ON `observations` (`series_id`,`observed_on`,`import_id`);--> statement-breakpoint
CREATE INDEX `observations_series_date` ON `observations` (`series_id`,`observed_on`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`skill` text NOT NULL,
	`account_id` text NOT NULL,
	`auth_obj_id` text NOT NULL,
	`tier` text NOT NULL,
	`body` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	`signature` text NOT NULL,
	`kid` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`kid`) REFERENCES `signing_keys`(`kid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_id_unique` ON `receipts` (`id`);--> statement-breakpoint
CREATE INDEX `receipts_account_issued` ON `receipts` (`account_id`,`issued_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`digest` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`public_key` text NOT NULL,
	`private_key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`request_id` text NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`skill` text NOT NULL,
	`status` integer NOT NULL,
	`latency_ms` real NOT NULL,
	`receipt_id` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `usage_events_account_at` ON `usage_events` (`account_id`,`at`);--> statement-breakpoint
CREATE INDEX `usage_events_key_at` ON `usage_events` (`key_id`,`at`);