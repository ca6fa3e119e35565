"""The statements every move runs, as SQL written once instead of built by the ORM each time.

A move locks its table's row, appends its lines to the move log and saves the table's
changed columns. Through the ORM these three cost about 1.5 ms of building and compiling
queries a move, five times what the database takes to run them, and a hundred busy tables
make a hundred moves a second (docs/performance.md). So the SQL is built once per model,
column list and database, and the values are prepared by the model fields themselves
(``pre_save`` for ``auto_now``, ``get_db_prep_save`` for JSON and dates), as the ORM
prepares them. The statements run on the database driver's own cursor, in the connection's
transaction: Django's cursor wrapper (on SQLite, a regular expression over the SQL on every
call) cost more than SQLite takes to run them. Everything else stays with the ORM; the
service tests run these on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from .models import Table


def lock_table(code: str) -> int | None:
    """Lock the table's row until the transaction ends (SQLite locks the whole database on
    the write instead) and return its revision; None for no such table."""
    db = _database()
    row = _execute(db, _lock_sql(db.vendor), [code])
    return None if row is None else row[0]


def save_columns(instance: models.Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)``, for a row known to exist."""
    db = _database()
    fields = [instance._meta.get_field(name) for name in names]
    values = [f.get_db_prep_save(f.pre_save(instance, False), db) for f in fields]
    _execute(db, _update_sql(type(instance), tuple(names), db.vendor), [*values, instance.pk])


def insert(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """``model.objects.bulk_create(rows)``, without reading back their primary keys: one
    statement for all the rows (psycopg's ``executemany`` runs a pipeline, costlier than
    the statement itself for the line or two of a move)."""
    if not rows:
        return
    db = _database()
    fields = _insert_fields(model)
    values = [f.get_db_prep_save(f.pre_save(row, True), db) for row in rows for f in fields]
    _execute(db, _insert_sql(model, len(rows), db.vendor), values)


def _database() -> BaseDatabaseWrapper:
    """This thread's connection itself: ``django.db.connection`` is a proxy that looks it
    up again on every attribute, a dozen times a statement with the fields' preparation."""
    return connections[DEFAULT_DB_ALIAS]


def _execute(db: BaseDatabaseWrapper, sql: str, params: Sequence[Any]) -> tuple | None:
    """Run ``sql`` on a cursor of the driver's connection (not Django's wrapper), with the
    driver's errors raised as Django's, as the wrapper raises them; the first row it
    returns, if any."""
    db.validate_no_broken_transaction()
    db.ensure_connection()
    with db.wrap_database_errors:
        cursor = _cursor(db)
        try:
            cursor.execute(sql, params)
            return cursor.fetchone() if cursor.description else None
        finally:
            cursor.close()


def _cursor(db: BaseDatabaseWrapper) -> Any:
    """A cursor of the driver's connection. On PostgreSQL, one that binds the parameters on
    the server: psycopg sends them beside the SQL instead of quoting each into its text, as
    Django's client-side cursors do (the JSON of a move's lines included: a third of
    psycopg's time in the server, benchmarks/load.py --profile), and a statement run a few
    times on a connection is prepared (``prepare_threshold``, config/settings.py), so that
    PostgreSQL parses and plans it once a connection rather than once a move."""
    if db.vendor == "postgresql":
        return psycopg.Cursor(db.connection)
    return db.connection.cursor()


def _placeholders(sql: str, vendor: str) -> str:
    """The SQL with the driver's own placeholders: sqlite3 takes ``?`` where Django's SQL
    (and psycopg) has ``%s``."""
    return sql.replace("%s", "?") if vendor == "sqlite" else sql


@lru_cache
def _lock_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    sql = f"SELECT {q('revision')} FROM {q(Table._meta.db_table)} WHERE {q('code')} = %s"
    sql += " FOR UPDATE" if connection.features.has_select_for_update else ""
    return _placeholders(sql, vendor)


@lru_cache
def _update_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    q = connection.ops.quote_name
    columns = ", ".join(f"{q(model._meta.get_field(name).column)} = %s" for name in names)
    table, pk = q(model._meta.db_table), q(model._meta.pk.column)
    return _placeholders(f"UPDATE {table} SET {columns} WHERE {pk} = %s", vendor)


@lru_cache
def _insert_fields(model: type[models.Model]) -> tuple[models.Field, ...]:
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key)


@lru_cache
def _insert_sql(model: type[models.Model], count: int, vendor: str) -> str:
    q = connection.ops.quote_name
    fields = _insert_fields(model)
    columns = ", ".join(q(f.column) for f in fields)
    row = "(" + ", ".join("%s" for _ in fields) + ")"
    values = ", ".join([row] * count)
    return _placeholders(
        f"INSERT INTO {q(model._meta.db_table)} ({columns}) VALUES {values}", vendor
    )
