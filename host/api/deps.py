"""Dependencies as ``Annotated`` aliases: the table, the store, and the token check."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from host.referee import Table
from host.store import Store

_bearer = HTTPBearer(
    auto_error=False,
    description="The table's token (`tableref token` prints it). Needed for every change.",
)


def get_table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


def get_store(request: Request) -> Store:
    return get_table(request).store


def require_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    expected: str = request.app.state.token
    if credentials is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "this change needs the table's token: send 'Authorization: Bearer <token>' "
            "(`tableref token` prints it)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not secrets.compare_digest(credentials.credentials.encode(), expected.encode()):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "wrong token: this is not the table's token")


# Ids are SQLite rowids: positive and within 64 bits (a larger number names nothing).
Id = Annotated[int, Path(ge=1, le=2**63 - 1)]
ObjectId = Annotated[int, Path(ge=0, le=2**63 - 1)]

TableDep = Annotated[Table, Depends(get_table)]
StoreDep = Annotated[Store, Depends(get_store)]
Authorized = Depends(require_token)
