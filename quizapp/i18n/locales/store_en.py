"""English: why a database cannot be used (quizapp.store.errors.DatabaseError, the common ones).
Keys match `store_zh.py`."""

MESSAGES: dict[str, str] = {
    "store.not_sqlite": "{path} is not a quizapp database (not an SQLite file)",
    "store.not_quizapp": "{path} is an SQLite file but not a quizapp database",
    "store.not_quizapp_detail": "{path} is not a quizapp database ({detail})",
    "store.schema_too_new": "{path} was written by a newer quizapp (schema {revision}); upgrade quizapp to open it",
    "store.locked": "{path} is locked by another program; close it and try again",
    "store.no_data": "{path} has no quizapp data yet",
    "store.needs_upgrade": "{path} needs an upgrade first (run `quizapp db upgrade`)",
    "store.busy": "the database is busy (another quizapp is writing); try again",
    "store.busy_importing": "the database is busy (another quizapp is importing, {percent}% done); try again",
    "store.damaged": "{path} is damaged ({detail}); run `quizapp db check` for details",
    "store.disk_full": "the disk holding {path} is full; free some space (quizapp tries again)",
    "store.cannot_read": "cannot read {path} ({detail})",
    "store.pg_not_quizapp": "{path} holds tables but is not a quizapp database",
    "store.connection_lost": "lost the connection to {url} ({detail}); nothing was saved",
    "store.pg_unreachable": "cannot use {url} ({detail})",
    "store.pg_no_driver": "PostgreSQL needs the psycopg package: pip install 'quizapp[postgres]'",
    "store.pg_no_dump": "pg_dump is not installed (Debian: apt-get install postgresql-client); no backup was written",
    "store.pg_dump_failed": "pg_dump failed ({detail}); no backup was written",
}
