"""The shape of what vision reports for one frame: the contract between vision and host.

Per object: ``{"label": TOKEN, "confidence": f, "quad": [[x,y]*4], "alternatives": [...]}``
(alternatives are the recogniser's next guesses, best first, as tokens or as
``{"label", "confidence"}`` objects). Per frame: ``objects``, optionally ``sets`` (Rummikub: the
objects grouped into table sets, each a list of object indices in left-to-right order),
``hand`` (a hand is over the table: the frame says nothing reliable) and the image size.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Alternative(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    label: str
    confidence: float | None = None


class ObjectRead(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    label: str
    confidence: float = Field(ge=0.0, le=1.0)
    quad: tuple[tuple[float, float], ...] = Field(min_length=4, max_length=4)
    alternatives: tuple[Alternative, ...] = ()

    @field_validator("alternatives", mode="before")
    @classmethod
    def _tokens_or_objects(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return [{"label": v} if isinstance(v, str) else v for v in value]
        return value

    @property
    def center(self) -> tuple[float, float]:
        xs = [p[0] for p in self.quad]
        ys = [p[1] for p in self.quad]
        return (sum(xs) / 4, sum(ys) / 4)

    @property
    def size(self) -> float:
        """The longer side of the quad's bounding box (matching tolerance scales with it)."""
        xs = [p[0] for p in self.quad]
        ys = [p[1] for p in self.quad]
        return max(max(xs) - min(xs), max(ys) - min(ys), 1.0)

    @property
    def height(self) -> float:
        ys = [p[1] for p in self.quad]
        return max(max(ys) - min(ys), 1.0)

    @property
    def width(self) -> float:
        xs = [p[0] for p in self.quad]
        return max(max(xs) - min(xs), 1.0)


class FrameRead(BaseModel):
    """One frame's reading."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    objects: tuple[ObjectRead, ...] = ()
    sets: tuple[tuple[int, ...], ...] | None = None
    hand: bool = False
    width: int = Field(1000, gt=0)
    height: int = Field(750, gt=0)
    frame: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _sets_of_tokens(cls, data: Any) -> Any:
        # Vision may give sets as token lists (what `tableref check rummikub` takes); map each
        # token to an object of that label not used yet, so sets always name objects.
        if not isinstance(data, dict) or not data.get("sets"):
            return data
        sets = data["sets"]
        if not all(isinstance(t, str) for s in sets for t in s):
            return data
        objects = data.get("objects") or []
        labels = [o.get("label") if isinstance(o, dict) else o.label for o in objects]
        used: set[int] = set()
        mapped = []
        for tokens in sets:
            indices = []
            for token in tokens:
                index = next(
                    (i for i, lab in enumerate(labels) if lab == token and i not in used), None
                )
                if index is not None:
                    used.add(index)
                    indices.append(index)
            mapped.append(indices)
        return {**data, "sets": mapped}
