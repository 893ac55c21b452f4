"""Request bodies. Unknown fields are refused so a typo is an error, not a silent no-op."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A name has something to show (not only spaces) and fits on the device's screen.
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"\S", examples=["Ann"])]


class PlayerIn(_Body):
    name: Name


class SessionIn(_Body):
    name: str = Field(default="game night", max_length=80)
    players: list[Name] = Field(min_length=1, max_length=8, examples=[["Ann", "Bob", "Cleo"]])


class GameIn(_Body):
    game: str = Field(examples=["rummikub"])
    options: dict[str, Any] = Field(default_factory=dict)
    # Real cards on the table: nobody knows the shuffled order, so the engine runs in table
    # mode (cards and tiles as seen or entered); false draws and records a shuffle.
    real_table: bool = False
    # The calibrated table whose zones place the objects (`tableref calibrate`); omitted: the
    # table's default setting; "": none, image sectors. Recorded with the game.
    table: str | None = Field(default=None, max_length=64, examples=["kitchen"])


class EventIn(_Body):
    """An engine event typed by hand: a flat object with its ``type``."""

    event: dict[str, Any] = Field(examples=[{"type": "draw", "player": "Ann"}])


class RacksIn(_Body):
    """A real Rummikub table's racks at the end, typed as tokens (``"r7 k13 J"``) or lists."""

    racks: dict[str, str | list[str]] = Field(
        min_length=1, max_length=8, examples=[{"Ann": "r7 k13 J", "Bob": "b1 b2"}]
    )


class CorrectionIn(_Body):
    object_id: int = Field(ge=0)
    label: str = Field(min_length=1, max_length=20, examples=["r7"])


class TriggerIn(_Body):
    name: str = Field(min_length=1, max_length=40, examples=["done"])
    data: dict[str, Any] = Field(default_factory=dict)


class TimerIn(_Body):
    action: Literal["start", "pause", "resume", "reset", "set"]
    seconds: int | None = Field(default=None, ge=1, le=3600)


class EndIn(_Body):
    status: Literal["abandoned"] = "abandoned"


class ErrorOut(BaseModel):
    detail: str = Field(description="What is wrong, in words.")


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Refused: the request or the game forbids it."},
    401: {"model": ErrorOut, "description": "A change without the table's token."},
    403: {"model": ErrorOut, "description": "A change with a wrong token."},
    404: {"model": ErrorOut, "description": "No such session, game, player or object."},
}
