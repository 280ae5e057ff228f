ALTER TABLE `artists` ADD `website0` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url0` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website1` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url1` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website2` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url2` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website3` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url3` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `legacy_external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `fundraisers_legacy_external_id_unique` ON `fundraisers` (`legacy_external_id`);