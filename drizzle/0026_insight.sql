-- Issue 29 (insight): a fundraiser's counts get a detail (a page view's source, a download's
-- format) and are kept WITHOUT ROWID, read in key order without a second lookup; a fundraiser's
-- money rows are indexed by date too (its days are ranges of the index).
DROP INDEX `money_journal_fundraiser_idx`;--> statement-breakpoint
CREATE INDEX `money_journal_fundraiser_day_idx` ON `money_journal` (`fundraiser_id`,`occurred_at`,`kind`,`charity_cents`) WHERE kind <> 'fee';--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fundraiser_daily_counts` (
	`fundraiser_id` integer NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`fundraiser_id`, `day`, `kind`, `detail`),
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_fundraiser_daily_counts`("fundraiser_id", "day", "kind", "detail", "count") SELECT "fundraiser_id", "day", "kind", '', "count" FROM `fundraiser_daily_counts`;--> statement-breakpoint
DROP TABLE `fundraiser_daily_counts`;--> statement-breakpoint
ALTER TABLE `__new_fundraiser_daily_counts` RENAME TO `fundraiser_daily_counts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- The site's counts too, rebuilt without a rowid: each row is found and read in its key's place
-- (a dashboard reads a year of them in order), not looked up again in a second tree.
CREATE TABLE `__new_analytics_daily_counts` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `kind`, `name`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_analytics_daily_counts`("day", "kind", "name", "count") SELECT "day", "kind", "name", "count" FROM `analytics_daily_counts`;--> statement-breakpoint
DROP TABLE `analytics_daily_counts`;--> statement-breakpoint
ALTER TABLE `__new_analytics_daily_counts` RENAME TO `analytics_daily_counts`;