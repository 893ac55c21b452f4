"""A training recipe with some of its settings changed by name (``tableref train --recipe``).

A recipe change is measured as several draws of it against the shipped recipe's
(``models/LIMITS.md``, the two-draw rule), so the change has to be one command anyone can
run again, not a script that dies with the session that wrote it.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from vision.train import Settings

# Settings the command sets by options of their own, or that name the recogniser.
OWN_OPTIONS = {
    "kind": "the KIND argument",
    "seed": "--seed",
    "scenes": "--scenes",
    "epochs": "--epochs",
    "real": "--real / --no-real",
    "dev_out": "--dev-out",
}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class RecipeError(ValueError):
    """A ``--recipe NAME=VALUE`` that names no setting, or a value of the wrong kind."""


def changeable() -> list[str]:
    """The settings ``--recipe`` may change, in the order :class:`Settings` lists them."""
    return [f.name for f in fields(Settings) if f.name not in OWN_OPTIONS]


def _value(name: str, text: str, like: Any) -> Any:
    """``text`` read as the kind of value ``like`` is (the shipped recipe's own value)."""
    if isinstance(like, bool):
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise RecipeError(f"--recipe {name}={text}: {name} is true or false")
    if isinstance(like, tuple):
        # An empty tuple holds font families (the only such setting): names.
        kind = type(like[0]) if like else str
        parts = [p.strip() for p in text.split(",") if p.strip()]
        try:
            return tuple(_value(name, p, kind()) for p in parts)
        except RecipeError:
            raise RecipeError(
                f"--recipe {name}={text}: {name} is {kind.__name__} values, comma-separated"
            ) from None
    try:
        return type(like)(text)
    except ValueError:
        raise RecipeError(
            f"--recipe {name}={text}: {name} is a{'n' if isinstance(like, int) else ''} "
            f"{type(like).__name__}"
        ) from None


def changed(settings: Settings, pairs: list[str]) -> Settings:
    """``settings`` with each ``NAME=VALUE`` of ``pairs`` set; a :class:`RecipeError` names
    the first pair that is not of that form, names no changeable setting, repeats a name or
    holds a value of the wrong kind."""
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RecipeError(f"--recipe {pair!r} is not of the form NAME=VALUE")
        if name in OWN_OPTIONS:
            raise RecipeError(f"--recipe {name}: give it as {OWN_OPTIONS[name]}")
        if name not in changeable():
            raise RecipeError(
                f"--recipe {name}: no such setting (one of: {', '.join(changeable())})"
            )
        if name in values:
            raise RecipeError(f"--recipe {name} is given twice")
        values[name] = _value(name, text.strip(), getattr(settings, name))
    return replace(settings, **values)
