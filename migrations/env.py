"""Alembic environment for quizapp.

quizapp runs migrations in-process (quizapp.store.database) and hands over its own
connection through `config.attributes["connection"]`; the `alembic` command line is
supported too, using `sqlalchemy.url` from alembic.ini or QUIZAPP_DB.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from quizapp.store.models import Base, include_name

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things, batch mode recreates tables.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      include_name=include_name)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or f"sqlite:///{os.environ.get('QUIZAPP_DB', 'quizapp.db')}"
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
