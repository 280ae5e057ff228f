ALTER TABLE `fundraisers` ADD `legacy_external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `fundraisers_legacy_external_id_unique` ON `fundraisers` (`legacy_external_id`);