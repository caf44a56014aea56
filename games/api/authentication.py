"""`Authorization: Token <key>` in one plain query.

DRF's TokenAuthentication reads the token with select_related("user") through the ORM:
every column of the user, and a query built in Python on each request. Here one SQL
statement joins the token to its user and reads only what a request needs (the id,
username, is_active, is_staff, is_superuser); any other field of request.user is loaded
on first access, as with a deferred queryset. request.auth is the Token (key, user_id).
An unknown key or an inactive user is handed to DRF's own method, which answers the
401 with its messages and translations (one more query, on failures only).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication
from rest_framework.authtoken.models import Token

NEEDED = {"id", "username", "is_active", "is_staff", "is_superuser"}


def _user_fields() -> list[str]:
    # In the model's field order: Model.from_db() assigns the values in that order.
    fields = get_user_model()._meta.concrete_fields
    return [f.attname for f in fields if f.attname in NEEDED]


def _token_sql() -> str:
    user = get_user_model()
    quote = connection.ops.quote_name
    columns = ", ".join(f"u.{quote(user._meta.get_field(f).column)}" for f in _user_fields())
    return (
        f"SELECT {columns} FROM {quote(Token._meta.db_table)} t "
        f"JOIN {quote(user._meta.db_table)} u ON u.{quote(user._meta.pk.column)} = t."
        f"{quote(Token._meta.get_field('user').column)} WHERE t.{quote('key')} = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, reading the token and its user in one plain query."""

    _sql: str | None = None
    _fields: list[str] = []

    def authenticate_credentials(self, key: str):
        cls = type(self)
        if cls._sql is None:
            cls._fields, cls._sql = _user_fields(), _token_sql()
        with connection.cursor() as cursor:
            cursor.execute(cls._sql, [key])
            row = cursor.fetchone()
        if row is None or not row[cls._fields.index("is_active")]:
            return super().authenticate_credentials(key)  # raises DRF's 401
        user = get_user_model().from_db(connection.alias, cls._fields, row)
        token = Token.from_db(connection.alias, ["key", "user_id"], [key, user.pk])
        return user, token
