CREATE TABLE `minute_windows` (
	`key_id` text PRIMARY KEY NOT NULL,
	`admitted` text NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
