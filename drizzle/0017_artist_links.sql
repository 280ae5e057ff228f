ALTER TABLE `artists` ADD `website0` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url0` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website1` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url1` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website2` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url2` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `website3` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `artists` ADD `url3` text DEFAULT '' NOT NULL;