CREATE TABLE `artist_slug_history` (
	`slug` text PRIMARY KEY NOT NULL,
	`artist_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`artist_id`) REFERENCES `artists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `artist_slug_history_artist_idx` ON `artist_slug_history` (`artist_id`);--> statement-breakpoint
CREATE TABLE `email_changes` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`new_email` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fundraiser_slug_history` (
	`slug` text PRIMARY KEY NOT NULL,
	`fundraiser_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fundraiser_slug_history_fundraiser_idx` ON `fundraiser_slug_history` (`fundraiser_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `interruptions` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` integer;