"""Four Color and Cactus renders: every font draws every character, every card is drawn and
drawn differently, scenes carry exact ground truth, and the font split holds fonts out."""

from __future__ import annotations

import numpy as np
import pytest

from host.rules.notation import tokens
from vision import cjk_fonts
from vision import synth_cactus as cactus
from vision import synth_fourcolor as fourcolor
from vision.synth_compose import rectify

CHESS = "將帥士仕象相車俥馬傌包炮卒兵"
CACTUS_TEXT = "".join(cactus.NAMES_ZH.values())


@pytest.mark.parametrize("font", [f.name for f in cjk_fonts.FONTS])
def test_every_font_is_installed_and_draws_every_character(font: str) -> None:
    # Under CI the fonts come from .ci/apt-packages.txt: a missing one fails here, loudly.
    assert cjk_fonts.missing_glyphs(font, CHESS + CACTUS_TEXT) == []


def test_missing_glyph_check_catches_tofu() -> None:
    assert cjk_fonts.missing_glyphs("ukai", "\U000f0001") == ["\U000f0001"]


def test_font_split_holds_families_out() -> None:
    train, held, unseen = (
        set(cjk_fonts.TRAIN_FONTS),
        set(cjk_fonts.HELDOUT_FONTS),
        set(cjk_fonts.UNSEEN_DECK_FONTS),
    )
    assert not train & held and not train & unseen and not held & unseen
    families = {cjk_fonts.BY_NAME[n].path.name.split("-")[0] for n in train}
    assert not any(cjk_fonts.BY_NAME[n].path.name.split("-")[0] in families for n in held)


def test_labels_are_the_notation_tokens() -> None:
    assert list(fourcolor.LABELS) == tokens("fourcolor")
    assert list(cactus.LABELS) == tokens("cactus")
    assert set(cactus.NAMES_ZH) == set(tokens("cactus"))


def test_four_color_cards_print_the_right_character_in_the_right_colour() -> None:
    rng = np.random.default_rng(1)
    style = fourcolor.random_style(rng)
    for token in fourcolor.LABELS:
        assert style.character(token) in fourcolor.CHARACTERS[token[1]]
    # Both forms of each piece occur across decks.
    forms = {fourcolor.random_style(np.random.default_rng(s)).character("rR") for s in range(20)}
    assert forms == {"車", "俥"}
    red = fourcolor.render_card("rG", style, 200).astype(int)
    green = fourcolor.render_card("gG", style, 200).astype(int)
    # BGR: a red card has more red than green ink in its character; a green card the reverse.
    top_r = fourcolor.index_crop(red).reshape(-1, 3)
    top_g = fourcolor.index_crop(green).reshape(-1, 3)
    ink_r = top_r[top_r.sum(axis=1) < 500]
    ink_g = top_g[top_g.sum(axis=1) < 500]
    assert ink_r[:, 2].mean() > ink_r[:, 1].mean() + 40
    assert ink_g[:, 1].mean() > ink_g[:, 2].mean() + 30


def test_every_card_looks_different_from_every_other() -> None:
    rng = np.random.default_rng(2)
    fstyle, cstyle = fourcolor.random_style(rng), cactus.random_style(rng)
    for module, style in ((fourcolor, fstyle), (cactus, cstyle)):
        faces = {t: module.render_card(t, style, 160).astype(np.int16) for t in module.LABELS}  # type: ignore[attr-defined]
        labels = list(faces)
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                assert np.abs(faces[a] - faces[b]).mean() > 2.0, (a, b)


def test_unknown_tokens_are_refused() -> None:
    style = fourcolor.random_style(np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown Four Color card 'xG'"):
        fourcolor.render_card("xG", style)
    with pytest.raises(ValueError, match="unknown Cactus card 'cactus'"):
        cactus.render_card("cactus", cactus.random_style(np.random.default_rng(0)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_four_color_scene_truth_matches_the_image(seed: int) -> None:
    scene = fourcolor.render_scene(np.random.default_rng(seed), hand=True)
    assert scene.image.shape == (750, 1000, 3)
    groups = {o.group for o in scene.objects}
    assert "hand" in groups and any(g.startswith("meld") for g in groups)
    # Melds: the truth lists each meld's cards left to right, all of them fully visible.
    for meld in scene.melds:
        xs = [scene.objects[i].quad.mean(axis=0)[0] for i in meld]
        assert xs == sorted(xs) or abs(xs[0] - xs[-1]) < 1e-6
        assert all(scene.objects[i].visible > 0.9 for i in meld)
    # A fanned hand leaves each card's top character at least half in view.
    hand = [o for o in scene.objects if o.group == "hand"]
    assert all(o.visible > 0.4 for o in hand)
    # The index region holds ink: the character is really where the truth says.
    for o in scene.objects:
        if o.visible > 0.9:
            patch = rectify(scene.image, o.index_quad, (40, 46)).astype(float)
            assert patch.std() > 20, o.label


def test_held_out_fonts_are_used_only_when_asked() -> None:
    fonts = {fourcolor.random_style(np.random.default_rng(s)).font for s in range(40)}
    assert fonts == set(cjk_fonts.TRAIN_FONTS)
    fonts = {cactus.random_style(np.random.default_rng(s)).font for s in range(40)}
    assert fonts == set(cjk_fonts.TRAIN_FONTS)
    held = fourcolor.render_scene(
        np.random.default_rng(0), fonts=cjk_fonts.HELDOUT_FONTS, size=(500, 375)
    )
    assert held.style.font in cjk_fonts.HELDOUT_FONTS


@pytest.mark.parametrize("seed", [0, 1])
def test_cactus_scene_has_a_readable_top_of_the_pile(seed: int) -> None:
    scene = cactus.render_scene(np.random.default_rng(seed))
    top = scene.objects[scene.pile[-1]]
    assert top.visible > 0.95 and scene.top_of_pile == top.label
    # Cards under it are covered, more or less: visibility is measured, not assumed.
    assert all(0.0 <= scene.objects[i].visible <= 1.0 for i in scene.pile)
    truth = scene.truth()
    assert truth["top"] == top.label and len(truth["objects"]) == len(scene.objects)


def test_crop_samples_are_balanced_and_sized() -> None:
    x, y = fourcolor.crop_samples(np.random.default_rng(0), 56, size=40)
    assert x.shape == (56, 40, 40, 3) and sorted(set(y)) == sorted(fourcolor.LABELS)
    assert all(y.count(t) == 2 for t in fourcolor.LABELS)
    x, y = cactus.crop_samples(np.random.default_rng(0), 12, size=(36, 48))
    assert x.shape == (12, 48, 36, 3) and sorted(y) == sorted(cactus.LABELS)
    assert x.std() > 20  # pictures, not blanks
