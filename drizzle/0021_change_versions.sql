CREATE TABLE `change_versions` (
	`scope` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `change_versions` (`scope`, `version`) VALUES ('public', 0), ('sessions', 0), ('grants', 0);
