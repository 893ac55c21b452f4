"""The application's settings: built-in defaults, overridable by config file, env and flags.

Precedence, strongest first: explicit values (command-line flags), environment variables
``TABLEREF_*``, the TOML config file (``$TABLEREF_CONFIG`` or ``<user config dir>/config.toml``),
then the defaults below. ``extra="forbid"`` makes a misspelt key fail loudly instead of being
silently ignored (Frigate's lesson: a typo in a config should never look like a default).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

APP_NAME = "tableref"


def default_config_file() -> Path:
    override = os.environ.get("TABLEREF_CONFIG")
    if override:
        return Path(override)
    return platformdirs.user_config_path(APP_NAME) / "config.toml"


class Settings(BaseSettings):
    """Everything a running table can be told; every field has a working default."""

    model_config = SettingsConfigDict(env_prefix="TABLEREF_", extra="forbid")

    data_dir: Path = Field(
        default_factory=lambda: platformdirs.user_data_path(APP_NAME),
        description="Where the SQLite store and the table's token live.",
    )
    host: str = Field(default="127.0.0.1", description="Address the web app listens on.")
    port: int = Field(default=8000, ge=0, le=65535, description="Port the web app listens on.")
    stable_frames: int = Field(
        default=3, ge=1, le=100, description="Agreeing frames before a read of the table counts."
    )
    min_confidence: float = Field(
        default=0.6,
        ge=0.0,
        le=1.0,
        description="Reads below this confidence are flagged for correction.",
    )
    turn_seconds: int = Field(default=60, ge=5, le=3600, description="Rummikub turn timer length.")
    device: str = Field(
        default="simulator",
        description="'simulator', 'none', or a serial port path ('auto' finds a Pico by USB id).",
    )
    camera: str | None = Field(
        default=None,
        description="Camera index, video file or image folder; none means replay/manual.",
    )

    table: str | None = Field(
        default=None,
        description="The calibrated table games place objects by (`tableref calibrate table "
        "--table NAME`): hand zones per seat and the shared zone, in table millimetres; none: "
        "seat sectors of the camera image.",
    )
    deck: str | None = Field(
        default=None,
        description="The table's enrolled deck (`tableref enroll --deck NAME`): the camera reads "
        "with its profile for every game it was enrolled for; none: the models alone.",
    )

    @property
    def db_path(self) -> Path:
        return self.data_dir / "tableref.sqlite3"

    @property
    def token_path(self) -> Path:
        return self.data_dir / "token"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=default_config_file())
        return (init_settings, env_settings, toml)


def load_settings(**overrides: Any) -> Settings:
    """Settings with flag values on top (``None``: the flag was not given)."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
