"""The recogniser network (torch; ``train`` extra only): a small CNN with factorised heads."""

from __future__ import annotations

import torch
from torch import nn

from vision.labels import LabelSpec

EMBEDDING = 128


def _cbr(cin: int, cout: int) -> list[nn.Module]:
    return [
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    ]


def standardised(crops: torch.Tensor) -> torch.Tensor:
    """Each crop (0–255) less its own mean, over its own spread."""
    x = crops / 255.0
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = x.std(dim=(1, 2, 3), keepdim=True)
    return (x - mean) / (std + 0.05)


class Recogniser(nn.Module):
    """crops (N×3×h×w, 0–255) → (logits over the spec's labels, embedding).

    Each crop is standardised by its own mean and spread, so exposure and white balance
    matter less than shape and relative colour. A label's logit is the sum of its factors'
    logits (colour + number, rank + suit) plus a small per-label bias.
    """

    def __init__(self, spec: LabelSpec, widths: tuple[int, int, int] = (16, 32, 64)) -> None:
        super().__init__()
        w, h = spec.crop
        a, b, c = widths
        self.features = nn.Sequential(
            *_cbr(3, a),
            nn.MaxPool2d(2),
            *_cbr(a, b),
            *_cbr(b, b),
            nn.MaxPool2d(2),
            *_cbr(b, c),
            nn.MaxPool2d(2),
            *_cbr(c, c),
        )
        flat = c * (h // 8) * (w // 8)
        self.embed = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(flat, EMBEDDING), nn.ReLU(inplace=True)
        )
        self.heads = nn.ModuleList(nn.Linear(EMBEDDING, len(v)) for _, v in spec.factors)
        self.bias = nn.Parameter(torch.zeros(len(spec.labels)))
        self.register_buffer("parts", torch.tensor(spec.parts, dtype=torch.long))

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = standardised(crops)
        emb = self.embed(self.features(x))
        logits = self.bias.unsqueeze(0)
        parts: torch.Tensor = self.parts  # type: ignore[assignment]
        for f, head in enumerate(self.heads):
            logits = logits + head(emb)[:, parts[:, f]]
        return logits, emb


class Gate(nn.Module):
    """crops (N×3×h×w, 0–255) → one logit each: how likely the recogniser is to find an object
    there (:mod:`vision.proposal_gate`). Strided convolutions from the first layer on: about
    an eighth of the recogniser's time a crop, since it runs on every proposal.

    Crops are standardised as the recogniser's are (their own mean and spread).
    """

    def __init__(self, crop: tuple[int, int], widths: tuple[int, int, int] = (8, 16, 32)) -> None:
        super().__init__()
        w, h = crop
        a, b, c = widths

        def strided(cin: int, cout: int) -> list[nn.Module]:
            return [
                nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True),
            ]

        self.features = nn.Sequential(*strided(3, a), *strided(a, b), *strided(b, c), *_cbr(c, c))
        self.head = nn.Linear(c * (h // 8) * (w // 8), 1)

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        x = standardised(crops)
        out: torch.Tensor = self.head(self.features(x).flatten(1))[:, 0]
        return out
