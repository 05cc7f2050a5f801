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
CREATE INDEX `account_audit_account_at` ON `account_audit` (`account_id`,`at`);