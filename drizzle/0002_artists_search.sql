-- Full-text search over artists (issue 3). An external-content FTS5 index holding only what the
-- public search may return, published and not deleted, so a search never has to join back to
-- filter. Triggers keep it in step. unicode61 with diacritics removed: "beyonce" finds "Beyoncé".
-- Ranking is bm25 with a name match weighing ten times a description match. Prefixes of 2 and 3
-- characters are indexed too, so 'ja' or 'jaz' as typed need no scan of the term list.
CREATE VIRTUAL TABLE `artists_fts` USING fts5(
	name,
	description,
	content='artists',
	content_rowid='id',
	tokenize='unicode61 remove_diacritics 2',
	prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `artists_fts`(`artists_fts`, rank) VALUES ('rank', 'bm25(10.0, 1.0)');
--> statement-breakpoint
INSERT INTO `artists_fts`(rowid, name, description)
	SELECT id, name, description FROM `artists` WHERE status = 'PUBLISHED' AND deleted_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_insert` AFTER INSERT ON `artists`
	WHEN new.status = 'PUBLISHED' AND new.deleted_at IS NULL
BEGIN
	INSERT INTO `artists_fts`(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_delete` AFTER DELETE ON `artists`
	WHEN old.status = 'PUBLISHED' AND old.deleted_at IS NULL
BEGIN
	INSERT INTO `artists_fts`(`artists_fts`, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER `artists_fts_update` AFTER UPDATE ON `artists`
BEGIN
	INSERT INTO `artists_fts`(`artists_fts`, rowid, name, description)
		SELECT 'delete', old.id, old.name, old.description WHERE old.status = 'PUBLISHED' AND old.deleted_at IS NULL;
	INSERT INTO `artists_fts`(rowid, name, description)
		SELECT new.id, new.name, new.description WHERE new.status = 'PUBLISHED' AND new.deleted_at IS NULL;
END;
