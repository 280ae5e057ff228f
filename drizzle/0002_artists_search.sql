-- Full-text search over artists' names and descriptions (issue 3): an external-content FTS5
-- index kept in step with the artists table by triggers. unicode61 with diacritics removed, so
-- "beyonce" finds "Beyoncé".
CREATE VIRTUAL TABLE `artists_fts` USING fts5(
	name,
	description,
	content='artists',
	content_rowid='id',
	tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO `artists_fts`(rowid, name, description) SELECT id, name, description FROM `artists`;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_insert` AFTER INSERT ON `artists` BEGIN
	INSERT INTO `artists_fts`(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_delete` AFTER DELETE ON `artists` BEGIN
	INSERT INTO `artists_fts`(`artists_fts`, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_update` AFTER UPDATE OF name, description ON `artists` BEGIN
	INSERT INTO `artists_fts`(`artists_fts`, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
	INSERT INTO `artists_fts`(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
