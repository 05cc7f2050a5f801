CREATE TABLE `batch_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`receipt_id` text NOT NULL,
	`format` text NOT NULL,
	`file_name` text,
	`columns` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failure` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `batch_jobs_account_created` ON `batch_jobs` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `batch_rows` (
	`job_id` text NOT NULL,
	`row` integer NOT NULL,
	`cells` text NOT NULL,
	`outcome` text,
	PRIMARY KEY(`job_id`, `row`),
	FOREIGN KEY (`job_id`) REFERENCES `batch_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
