"""The table's token: made once at first start, kept in the data directory, shown by the CLI.

Anyone on the network may watch; changing anything needs this token. It is a random
URL-safe string in a file only its owner can read.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def load_or_create_token(path: Path) -> str:
    if path.exists():
        token = path.read_text().strip()
        if len(token) >= 16:
            return token
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    # Create with 0600 from the start so the token is never readable by others, even briefly.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(token + "\n")
    return token
