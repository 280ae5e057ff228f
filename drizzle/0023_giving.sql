CREATE TABLE `giving_statements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`year` integer NOT NULL,
	`sent_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `giving_statements_email_year_unique` ON `giving_statements` (`email`,`year`);--> statement-breakpoint
ALTER TABLE `donations` ADD `fee_cover_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `donations` ADD `gift_recipient_name` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `gift_recipient_email` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `gift_message` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `gift_deliver_on` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `gift_sent_at` integer;