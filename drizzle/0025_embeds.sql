CREATE TABLE `fundraiser_daily_counts` (
	`fundraiser_id` integer NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`fundraiser_id`, `day`, `kind`),
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `donations` ADD `source` text;