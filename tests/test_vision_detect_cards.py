"""Card corner-index proposals (vision.detect_cards.card_candidates): small indices, speckle,
busy textures, and the fast helpers that must give what the shared ones give."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import datasets, detect, detect_cards, overlaps, synth
from vision.evaluate import score
from vision.matching import aligned, same_object
from vision.reader import TableReader


def _table_with_cards(
    labels: list[str], card_h: float, angles: list[float], size: tuple[int, int] = (1000, 750)
) -> tuple[synth.Image, list[synth.Quad]]:
    """Cards of ``card_h`` pixels on a plain table (up to 8, in two rows), their index quads."""
    img = np.full((size[1], size[0], 3), 120, np.uint8)
    rng = np.random.default_rng(3)
    truths: list[synth.Quad] = []
    for k, (label, angle) in enumerate(zip(labels, angles, strict=True)):
        face, quads = synth.render_card(label, "cards", rng, int(card_h * 1.2))
        fh, fw = face.shape[:2]
        cx, cy = (170 + 220 * (k % 4), 200 + 330 * (k // 4)) if len(labels) > 1 else (320, 240)
        w = card_h * fw / fh
        a = math.radians(angle)
        down = np.array([math.cos(a + math.pi / 2), math.sin(a + math.pi / 2)], np.float32)
        right = np.array([down[1], -down[0]], np.float32)
        c = np.array([cx, cy], np.float32)
        q = np.stack(
            [
                c - right * w / 2 - down * card_h / 2,
                c + right * w / 2 - down * card_h / 2,
                c + right * w / 2 + down * card_h / 2,
                c - right * w / 2 + down * card_h / 2,
            ]
        ).astype(np.float32)
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        m = cv2.getPerspectiveTransform(src, q)
        warped = cv2.warpPerspective(face, m, size)
        inside = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, size) > 0
        img[inside] = warped[inside]
        truths += [cv2.perspectiveTransform(iq[None], m)[0] for iq in quads]
    return img, truths


def _missed(image: synth.Image, truths: list[synth.Quad], cap: int = detect_cards.CARD_CAP) -> int:
    found = detect_cards.card_candidates(image, max_candidates=cap)
    return sum(not any(same_object(q, t) for q in found) for t in truths)


LABELS = ["7C", "10H", "QS", "AD", "4S", "9H", "KC", "2D"]


def test_synthetic_scene_indices_are_proposed() -> None:
    # Measured on these 30 scenes: 96.5% of the visible indices have a proposal (before the
    # speckle filter, the wider masks and plausibility ranking: 91.5%).
    hit = total = 0
    for i in range(30):
        rng = np.random.default_rng(700 + i)
        scene = synth.card_scene(rng, "allin" if i % 2 else "cards")
        total += len(scene.truths)
        hit += len(scene.truths) - _missed(scene.image, [t.quad for t in scene.truths])
    assert hit / total >= 0.95, (hit, total)


def test_real_photo_indices_are_proposed(shared: object) -> None:
    # Training-split photos (never the held-out ones): 98.5% measured here, 93.6% before.
    photos = [p for p in datasets.load("cards") if p.split == "train"][::8]
    hit = total = 0
    for p in photos:
        image = cv2.imread(str(p.path))
        quads = [t.quad for t in p.truths]
        total += len(quads)
        hit += len(quads) - _missed(image, quads)
    assert total > 150
    assert hit / total >= 0.97, (hit, total)


def test_indices_are_proposed_through_speckle() -> None:
    img, truths = _table_with_cards(LABELS, 200, [0, 20, 45, 90, 135, 180, 225, 330])
    rng = np.random.default_rng(1)
    n = img.shape[0] * img.shape[1] // 60
    ys, xs = rng.integers(0, img.shape[0], n), rng.integers(0, img.shape[1], n)
    img[ys, xs] = np.where(rng.random(n) < 0.5, 0, 255)[:, None]
    assert _missed(img, truths) <= 1


def test_large_indices_are_proposed() -> None:
    # A close-up of one card on a 640 px photo: each index ~110 px tall, its filled suit
    # wider than the 23 px structuring element, which left only the suit's outline.
    for label in ("8S", "AD", "10H"):
        img, truths = _table_with_cards([label], 460, [3], (640, 480))
        assert min(float(np.linalg.norm(t[3] - t[0])) for t in truths) > 90
        assert _missed(img, truths) == 0, label


def test_busy_texture_keeps_the_indices() -> None:
    # A mottled cloth gives hundreds of glyph pairs; the cap must keep the likeliest.
    rng = np.random.default_rng(2)
    img, truths = _table_with_cards(LABELS, 220, [0, 10, 170, 190, 5, 355, 180, 0])
    texture = rng.integers(90, 170, (750 // 6, 1000 // 6, 3)).astype(np.uint8)
    texture = cv2.resize(texture, (1000, 750), interpolation=cv2.INTER_NEAREST)
    plain = (img == 120).all(axis=2)
    img[plain] = texture[plain]
    assert _missed(img, truths, cap=500) <= 1
    assert len(detect_cards.card_candidates(img, max_candidates=500)) <= 500


def test_cards_on_a_fine_check_cloth_are_proposed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A check of fine dark lines is one net of ink around the cards; their print lies in
    # its holes.
    img, truths = _table_with_cards(LABELS, 220, [0, 10, 170, 190, 5, 355, 180, 0])
    yy, xx = np.mgrid[0:750, 0:1000]
    lines = ((yy % 10 < 3) | (xx % 10 < 3))[..., None]
    cloth = np.where(lines, np.array([60, 140, 50], np.uint8), np.array([200, 190, 170], np.uint8))
    plain = (img == 120).all(axis=2)
    img[plain] = cloth[plain]
    assert _missed(img, truths) == 0
    # The light squares between the lines are texture too: without either rule, half the
    # indices are lost.
    monkeypatch.setattr(detect, "TEXTURE_MOST", 10**9)
    # Under the cap these rules were measured at: the cap of 2000 (2026-12-06) frames more.
    found = detect_cards.card_candidates(img, inside=False, max_candidates=1200)
    assert sum(not any(same_object(q, t) for q in found) for t in truths) >= 8
    # The generated fan that showed it (seed 5 900 215): 8 clear indices, none proposed;
    # the inside rule alone finds them all.
    scene = synth.card_scene(np.random.default_rng(5_900_215), "cards")
    assert scene.conditions["surface"] == "pattern"
    assert _missed(scene.image, [t.quad for t in scene.truths]) == 0


@pytest.mark.parametrize(("game", "seed"), [("allin", 6_100_188), ("cards", 5_900_146)])
def test_indices_on_a_checked_cloth_are_not_lost_to_its_checks(
    game: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Generated tables (not the bench's) on cloths of glyph-sized checks, 5000 blobs a mask:
    # the glyph limit ran out on the checks, and the indices had no proposal.
    scene = synth.card_scene(np.random.default_rng(seed), game)
    assert scene.conditions["surface"] == "pattern"
    truths = [t.quad for t in scene.truths]
    assert _missed(scene.image, truths) == 0
    monkeypatch.setattr(detect, "TEXTURE_MOST", 10**9)
    # Since 2026-12-01 half the cap goes to proposals on bare ground, which finds them too
    # (all but one on the standard deck's table): that is off here.
    monkeypatch.setattr(detect_cards, "BARE_WEIGHT", 0.0)
    assert _missed(scene.image, truths) >= 3


def test_checks_under_the_glyph_limit_are_texture_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # Larger checks, 600-1100 blobs a mask: under the glyph limit, but their pairs filled
    # the proposal cap (generated table 6 100 229, not the bench's).
    scene = synth.card_scene(np.random.default_rng(6_100_229), "allin")
    eight = [t.quad for t in scene.truths if t.label == "8m"]
    assert _missed(scene.image, eight) == 0
    monkeypatch.setattr(detect, "TEXTURE_FROM", 1500)  # only beyond the glyph limit
    monkeypatch.setattr(
        detect_cards, "BARE_WEIGHT", 0.0
    )  # the bare-ground half of the cap finds it too
    # Under the cap it was measured at: the cap of 2000 (2026-12-06) frames it too.
    assert _missed(scene.image, eight, cap=1200) == 1  # one of its two indices


def test_a_suit_as_small_as_the_checks_is_not_taken_for_them() -> None:
    # Only blobs packed side by side among many of their size are texture: a small suit
    # alone on its card's paper is not (an A and 6 of trees lost their suits to it).
    mask = np.zeros((480, 640), np.uint8)
    for y in range(0, 480, 6):  # the dark checks, 5 px with a pixel's gap at their corners
        for x in range(y % 12, 640, 12):
            if not (200 <= x < 440 and 150 <= y < 330):  # a card lies here
                mask[y : y + 5, x : x + 5] = 255
    mask[230:235, 300:305] = 255  # a suit of the checks' size, alone on the card
    mask[200:224, 300:314] = 255  # its rank above it
    assert len(detect.glyphs(mask, 4, 110)) == 1500  # the limit, reached on the checks
    found = detect.glyphs(mask, 4, 110, texture=True)
    inside = [
        (float(g.centre[0]), float(g.centre[1]))
        for g in found
        if 8 < g.centre[0] < 632 and 8 < g.centre[1] < 472  # not a check cut by the border
    ]
    assert sorted(inside) == [(302.0, 232.0), (306.5, 211.5)]


def test_cards_on_a_knitted_blanket_are_proposed(shared: object) -> None:
    # Texture glyph pairs filled the old cap of 500 and pushed 9 of these 14 indices out.
    p = next(p for p in datasets.load("cards") if p.path.name.startswith("WIN_20240627_12_29_18"))
    image = cv2.imread(str(p.path))
    truths = [t.quad for t in p.truths]
    assert _missed(image, truths, cap=500) >= 5
    assert _missed(image, truths) == 0


def test_cards_on_a_knitted_blanket_are_read_under_the_cap(
    shared: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two photos of the training split with 3 300-3 800 proposals before the cap: under a cap
    # of 1200 the frames that read some of these indices were cut, behind texture pairs.
    names = ("WIN_20240627_12_29_18", "WIN_20240627_12_29_57")
    photos = [p for p in datasets.load("cards") if p.path.name.startswith(names)]
    assert [p.split for p in photos] == ["train", "train"]
    reader = TableReader("cards")

    def scores() -> list[tuple[int, int, int]]:
        out = []
        for p in photos:
            s = score(reader.read(cv2.imread(str(p.path))).objects, p.truths, other_corners=True)
            out.append((s.right, s.objects, s.spurious))
        return out

    now = scores()
    monkeypatch.setattr(detect_cards, "CARD_CAP", 1200)
    assert now == [(13, 14, 1), (15, 15, 0)]
    assert scores() == [(10, 14, 1), (13, 15, 0)]


def test_card_ink_masks_match_ink_mask() -> None:
    scene = synth.card_scene(np.random.default_rng(4), "cards")
    small = cv2.resize(scene.image, (640, 480))
    fast = detect_cards.card_ink_masks(small, (9, 23))
    assert np.array_equal(fast[0], detect.ink_mask(small, 9))
    assert np.array_equal(fast[1], detect.ink_mask(small, 23))


def _pairwise_distinct(quads: list[synth.Quad], tolerance: float = 0.12) -> list[synth.Quad]:
    """The plain definition :func:`overlaps.distinct` must agree with: each quad against every
    kept one."""
    kept: list[synth.Quad] = []
    for q in quads:
        c, size = q.mean(axis=0), float(np.linalg.norm(q[2] - q[0]))
        angle = math.degrees(math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0])) % 180.0
        for k in kept:
            kc, ks = k.mean(axis=0), float(np.linalg.norm(k[2] - k[0]))
            ka = math.degrees(math.atan2(k[1][1] - k[0][1], k[1][0] - k[0][0])) % 180.0
            turn = abs(ka - angle)
            if (
                float(np.linalg.norm(kc - c)) < tolerance * size
                and abs(ks - size) < tolerance * size
                and min(turn, 180.0 - turn) < 8.0
            ):
                break
        else:
            kept.append(q)
    return kept


@pytest.mark.parametrize("seed", [0, 1])
def test_distinct_matches_the_pairwise_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    quads = [
        detect.rect_quad(
            rng.uniform(0, 60, 2).astype(np.float32),
            float(rng.uniform(10, 14)),
            float(rng.uniform(16, 22)),
            float(rng.choice([0.0, 3.0, 90.0, 180.0])),
        )
        for _ in range(200)
    ]
    # A few frames many times the usual size, each with near copies: their reach spans many
    # of the grid's cells, which follow the usual size.
    for _ in range(6):
        centre = rng.uniform(0, 60, 2).astype(np.float32)
        side = float(rng.uniform(150, 250))
        for _ in range(3):
            jitter = rng.normal(0, 0.04 * side, 2).astype(np.float32)
            quads.append(detect.rect_quad(centre + jitter, side, side * 1.4, 0.0))
    rng.shuffle(quads)  # type: ignore[arg-type]
    slow = _pairwise_distinct(quads)
    fast = overlaps.distinct(quads)
    assert len(slow) == len(fast)
    assert all(a is b for a, b in zip(slow, fast, strict=True))


def test_nothing_on_a_plain_table() -> None:
    assert detect_cards.card_candidates(np.full((480, 640, 3), 200, np.uint8)) == []


def test_training_labels_only_well_framed_proposals() -> None:
    from vision.train import _card_fit

    truth = detect.pair_quad(np.array([50, 50], np.float32), np.array([50, 64], np.float32))
    assert _card_fit(truth, truth, real=False) == "index"
    assert _card_fit(np.roll(truth, 2, axis=0), truth, real=False) == "index"  # half-turned
    assert _card_fit(truth[[1, 2, 3, 0]], truth, real=False) == "sideways"
    small = (truth.mean(0) + (truth - truth.mean(0)) * 0.45).astype(np.float32)
    assert _card_fit(small, truth, real=False) == "unsure"  # a rank-only crop
    # Real boxes are axis-aligned: only their shape says which way the index stands.
    box = np.array([[40, 30], [60, 30], [60, 70], [40, 70]], np.float32)  # portrait
    upright = detect.rect_quad(np.array([50, 50], np.float32), 20, 36, 92.0)
    across = detect.rect_quad(np.array([50, 50], np.float32), 20, 36, 2.0)
    assert _card_fit(upright, box, real=True) == "index"
    assert _card_fit(across, box, real=True) == "sideways"
    square = np.array([[40, 40], [60, 40], [60, 60], [40, 60]], np.float32)
    assert _card_fit(upright, square, real=True) == "unsure"


def test_speckle_is_salt_and_pepper() -> None:
    from vision.train import speckle

    image = np.full((100, 120, 3), 128, np.uint8)
    out = speckle(image, np.random.default_rng(0))
    changed = (out != 128).any(axis=2)
    assert 0.001 < changed.mean() < 0.03
    assert set(np.unique(out[changed])) <= {0, 255}
    assert (image == 128).all()  # the input is left alone


def _unit(x: float, y: float, h: float, w: float) -> detect.Glyph:
    return detect.Glyph(np.array([x, y], np.float32), h, w, 90.0, (int(x), int(y), 1, 1))


def test_a_small_suit_far_below_its_rank_still_pairs() -> None:
    # Rank 6.3 px tall, suit 5 px, 11 px apart (measured on small indices of generated
    # scenes): only "rank over suit" passes the pair tests, and it was dropped as the
    # half-turned twin of "suit over rank", which never existed; whichever glyph comes first.
    rank, suit = np.array([40, 30], np.float32), np.array([40, 41], np.float32)
    truth = detect.pair_quad(rank, suit)
    for units in (
        [_unit(40, 41, 5, 4), _unit(40, 30, 6.3, 4.5)],
        [_unit(40, 30, 6.3, 4.5), _unit(40, 41, 5, 4)],
    ):
        quads, _ = detect_cards._card_quads(units)
        assert any(overlaps.quad_iou(q, truth) > 0.9 for q in quads)


def test_partners_and_crowds_reach_twice_a_units_height_whatever_else_lies_about() -> None:
    # Only units near along x are measured (within twice a unit's height): a partner almost
    # that far away, level with the rank, still pairs, and neighbours that far count in its
    # crowd, among far more units elsewhere on the photo.
    rank, suit = _unit(100, 100, 10, 4), _unit(119.5, 100, 6, 5)
    truth = detect.pair_quad(rank.centre, suit.centre)
    elsewhere = [_unit(400 + 7 * k, 300 + 3 * k, 5, 4) for k in range(200)]
    for units in ([rank, suit], [*elsewhere, suit, rank], [rank, *elsewhere, suit]):
        quads, _ = detect_cards._card_quads(units)
        assert sum(overlaps.quad_iou(q, truth) > 0.9 for q in quads) == 1
    tall = detect.Glyph(np.array([50, 50], np.float32), 20, 6, 90.0, (50, 50, 1, 1))
    crowd = [_unit(50 + dx, 50 + dy, 3, 3) for dx, dy in ((39, 0), (-39, 0), (0, 39), (27, 27))]
    quads, scores = detect_cards._card_quads([tall, *crowd, _unit(50, 91, 3, 3), *elsewhere])
    # Itself and four neighbours within 40 px: a crowd of 2 beyond the first three.
    assert scores[0] == 1.0 / (1.0 + 0.3 * 2)


def test_glyphs_side_by_side_are_grouped_as_far_apart_as_their_sizes_allow() -> None:
    # Only glyphs near along x are measured: the smaller of two glyphs 1.35 times apart in
    # height, listed first, still groups with the larger one just under 0.45 of their
    # heights' sum away (42.2 px for 40 and 54), among many glyphs elsewhere.
    small, large = _unit(100, 100, 40, 20), _unit(142.2, 100, 54, 20)
    elsewhere = [_unit(400 + 7 * k, 300 + 3 * k, 5, 4) for k in range(200)]

    def together(a: detect.Glyph, b: detect.Glyph, groups: list[list[detect.Glyph]]) -> bool:
        return any(any(x is a for x in g) and any(x is b for x in g) for g in groups)

    assert together(small, large, detect.group_glyphs([small, large, *elsewhere]))
    farther = _unit(142.4, 100, 54, 20)  # 0.45 of the sum is 42.3 px
    assert not together(small, farther, detect.group_glyphs([small, farther]))


def test_an_index_read_twice_in_two_frames_is_one_object() -> None:
    centre = np.array([100, 100], np.float32)
    tight = detect.rect_quad(centre, 12, 20, 90.0)
    loose = detect.rect_quad(centre + 3, 20, 34, 70.0)  # larger, off-centre, slanted
    other_corner = detect.rect_quad(centre + 150, 12, 20, 270.0)
    quads, scores = [tight, loose, other_corner], [0.9, 0.95, 0.8]
    assert overlaps.drop_repeats(quads, ["7H", "7H", "7H"], scores) == [1, 2]
    assert overlaps.drop_repeats(quads, ["7H", "8H", "7H"], scores) == [0, 1, 2]
    # The same rank with another suit is that index read again, its suit confused.
    assert overlaps.drop_repeats(quads, ["7H", "7D", "7H"], scores) == [1, 2]
    assert overlaps.drop_repeats(quads, ["Qm", "Qc", "Qm"], scores) == [1, 2]
    # A frame that holds the surer one's centre but not the other way round (the rank
    # framed alone, a frame slid along the index) is the same index framed again.
    beside = detect.rect_quad(centre + np.array([0, 12], np.float32), 12, 30, 90.0)
    assert not overlaps.centre_within(beside, tight)
    assert overlaps.drop_repeats([tight, beside], ["7H", "7H"], [0.9, 0.8]) == [0]
    assert overlaps.drop_repeats([tight, beside], ["7H", "7H"], [0.8, 0.9]) == [1]
    # Overlapping frames with neither centre in the other (a fan's neighbours) both stay.
    apart = detect.rect_quad(centre + np.array([11, 0], np.float32), 12, 20, 90.0)
    assert overlaps.drop_repeats([tight, apart], ["7H", "7H"], [0.9, 0.8]) == [0, 1]


def test_a_suit_seen_small_right_below_a_tall_rank_pairs() -> None:
    # A J 16 px tall over a club whose lobes came out as one 6 px blob (measured on dark
    # tables and in glare): under the usual 0.4 size ratio, but right below the rank.
    rank, suit = np.array([40, 30], np.float32), np.array([40, 45], np.float32)
    truth = detect.pair_quad(rank, suit)
    quads, _ = detect_cards._card_quads([_unit(40, 30, 16, 6), _unit(40, 45, 6, 5)])
    assert any(overlaps.quad_iou(q, truth) > 0.9 for q in quads)
    # Not beside it: a small blob level with a rank is no suit of it.
    quads, _ = detect_cards._card_quads([_unit(40, 30, 16, 6), _unit(55, 30, 6, 5)])
    assert not any(overlaps.quad_iou(q, detect.pair_quad(rank, suit)) > 0.5 for q in quads)


def test_a_suit_seen_small_beside_a_squat_rank_pairs() -> None:
    # A blurred K whose blob is as wide as tall (18 px) with its suit a 7 px blob 15 px away
    # on the diagonal (measured on a generated All In scene): a squat rank shows no axis, so
    # the small suit pairs in any direction within the usual distance.
    rank, suit = np.array([40, 40], np.float32), np.array([51, 51], np.float32)
    quads, _ = detect_cards._card_quads([_unit(40, 40, 18.4, 17.7), _unit(51, 51, 7, 7)])
    assert any(overlaps.quad_iou(q, detect.pair_quad(rank, suit)) > 0.9 for q in quads)
    # Read time only: training's proposals are those the shipped models learnt from.
    quads, _ = detect_cards._card_quads(
        [_unit(40, 40, 18.4, 17.7), _unit(51, 51, 7, 7)], squat_suits=False
    )
    assert not any(overlaps.quad_iou(q, detect.pair_quad(rank, suit)) > 0.5 for q in quads)
    # A tall rank keeps the rule above: the same small blob on its diagonal is no suit of it.
    quads, _ = detect_cards._card_quads([_unit(40, 40, 18.4, 8), _unit(51, 51, 7, 7)])
    assert not any(overlaps.quad_iou(q, detect.pair_quad(rank, suit)) > 0.5 for q in quads)


def test_a_rank_wider_than_tall_over_its_suit_is_paired(shared: object) -> None:
    # Close-ups squashed to a square: the rank is wider than tall and sits over its suit, so
    # grouping took the two for glyphs side by side (a 10's digits) and merged them, and the
    # rank-over-suit pair was never proposed. Each index here is proposed, well framed, only
    # with the grouped glyphs also paired apart.
    names = ("IMG_20220921_193929", "IMG_20220921_193939", "IMG_20220921_193946")
    photos = [p for p in datasets.load("cards") if p.path.name.startswith(names)]
    assert len(photos) == 3

    def framed(quads: list[synth.Quad], truth: synth.Quad) -> bool:
        return any(same_object(q, truth) and aligned(q, truth) for q in quads)

    for p in photos:
        image = cv2.imread(str(p.path))
        assert all(framed(detect_cards.card_candidates(image), t.quad) for t in p.truths), (
            p.path.name
        )
        old = detect_cards.card_candidates(image, apart=False)
        assert not all(framed(old, t.quad) for t in p.truths), p.path.name


def test_training_takes_the_card_proposals_the_shipped_model_learnt_from(shared: object) -> None:
    # A model trained on the read-time proposals (paired apart, up to CARD_CAP) read the dev
    # fold worse (vision/train.py): training keeps 500 proposals, grouped glyphs merged only,
    # and no faint light print (the shipped model learnt without it).
    from vision.train import _candidates

    p = next(p for p in datasets.load("cards") if p.path.name.startswith("IMG_20220921_193939"))
    image = cv2.imread(str(p.path))
    old = detect_cards.card_candidates(image, max_candidates=500, apart=False, faint_light=False)
    assert [q.tolist() for q in _candidates("cards", image)] == [q.tolist() for q in old]
    assert len(detect_cards.card_candidates(image)) > len(old)


def test_faint_light_print_shows_on_a_dark_face_only() -> None:
    # Light print 32 above its ground, where thin bright strokes set Otsu's level higher than
    # that: the faint mask takes it on a black card face, and not on a pale table.
    img = np.full((200, 400, 3), 190, np.uint8)
    img[:, 200:] = 25
    for x in range(210, 390, 12):
        img[150:190, x : x + 2] = 250
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, "5", (60, 100), font, 1.5, (222, 222, 222), 3)
    cv2.putText(img, "5", (260, 100), font, 1.5, (57, 57, 57), 3)
    on_face = (slice(40, 110), slice(200, 400))
    fine, faint, wide = detect_cards.bright_masks(img, (9, 23), faint=True)
    assert not fine[on_face].any() and not wide[on_face].any()
    assert np.count_nonzero(faint[on_face]) > 200
    assert not faint[:, :200].any()
    assert len(detect_cards.bright_masks(img, (9, 23))) == 2


def test_a_dark_deck_with_faint_print_is_proposed(
    shared: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Gold-on-black cards on a white table (training split): the table's edge against the
    # black faces set Otsu's level, and these indices' grey print fell under it (3 of 8 and
    # 5 of 12 framed without the faint mask). Under the cap of 1200 it was measured at: under
    # 2000 (2026-12-06) the second photo frames 8 of 12 without it and 9 with it.
    monkeypatch.setattr(detect_cards, "CARD_CAP", 1200)
    photos = [p for p in datasets.load("cards") if p.path.name.startswith(("IMG_7826", "IMG_7837"))]
    assert [p.split for p in photos] == ["train", "train"]

    def framed(quads: list[synth.Quad], truths: list[synth.Truth]) -> int:
        well = [any(same_object(q, t.quad) and aligned(q, t.quad) for q in quads) for t in truths]
        return sum(well)

    for p in photos:
        image = cv2.imread(str(p.path))
        now = framed(detect_cards.card_candidates(image), p.truths)
        before = framed(detect_cards.card_candidates(image, faint_light=False), p.truths)
        assert now >= before + 2, (p.path.name, now, before)  # measured 6 of 8 and 7 of 12


def test_small_indices_are_proposed_at_the_finer_scale() -> None:
    # Cards 80 px tall on a 1000 px frame, slightly soft: indices ~13 px tall at the 640 px
    # working size, whose strokes the median and the downscaling wipe out. Measured: 9 of the
    # 16 indices unproposed by card_candidates, 2 once the finer look's quads are added.
    img, truths = _table_with_cards(LABELS, 80, [0, 20, 45, 90, 135, 180, 225, 330])
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    base = detect_cards.card_candidates(img)
    fine = detect_cards.fine_card_quads(img)
    assert sum(not any(same_object(q, t) for q in base) for t in truths) >= 7
    assert sum(not any(same_object(q, t) for q in base + fine) for t in truths) <= 3
    # Only index-sized quads come from the finer look, all of them small.
    working = detect_cards.CARD_WORK_SIDE / 1000
    assert fine
    assert max(float(np.linalg.norm(q[3] - q[0])) * working for q in fine) < detect_cards.FINE_INDEX


def test_the_finer_look_skips_a_mask_of_texture(monkeypatch: pytest.MonkeyPatch) -> None:
    # This generated table's cloth gives 1500 blobs and more at the finer scale; pairing
    # them all took 0.6 s. Beyond FINE_GLYPHS blobs a mask is left out.
    img = synth.card_scene(np.random.default_rng(3_700_009), "allin").image
    mask = detect_cards.card_ink_masks(cv2.medianBlur(img, 3), (9,), detect_cards.FAINT)[0]
    assert len(detect.glyphs(mask, 4, 110, limit=5000)) > detect_cards.FINE_GLYPHS
    skipped = len(detect_cards.fine_card_quads(img))
    monkeypatch.setattr(detect_cards, "FINE_GLYPHS", 10**6)
    assert len(detect_cards.fine_card_quads(img)) > skipped + 100


def test_distinct_after_a_distinct_prefix_is_distinct_over_all() -> None:
    rng = np.random.default_rng(5)
    quads = [
        detect.rect_quad(
            rng.uniform(0, 300, 2).astype(np.float32), 20.0, 32.0, float(rng.uniform(0, 360))
        )
        for _ in range(300)
    ]
    quads += [q + rng.normal(0, 0.5, (4, 2)).astype(np.float32) for q in quads[::3]]
    first = overlaps.distinct(quads[:200])
    rest = quads[200:]
    joined = overlaps.distinct([*first, *rest], start=len(first))
    expected = overlaps.distinct([*first, *rest])
    assert len(joined) == len(expected) < len(first) + len(rest)
    assert all(np.array_equal(a, b) for a, b in zip(joined, expected, strict=True))
    assert all(a is b for a, b in zip(joined, first, strict=False))


@pytest.mark.parametrize(("seed", "label"), [(5_200_207, "8b"), (5_200_160, "At")])
def test_a_washed_out_photos_faint_indices_are_read(
    seed: int, label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Generated All In tables (not the bench's seeds) under glare or bright light: a card's
    # print stood 26-34 above its face, split by Otsu's level and the ink floor, and one of
    # its two indices went unproposed or unread.
    scene = synth.card_scene(np.random.default_rng(seed), "allin")
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    assert float(np.percentile(grey, 1)) > detect_cards.WASHED_GREY
    both = [t for t in scene.truths if t.label == label]
    assert len(both) == 2
    assert score(TableReader("allin").read(scene.image).objects, both).right == 2
    monkeypatch.setattr(detect_cards, "WASHED_GREY", 255.0)
    # Without the look at clipped paper as well: it reads such a face's print too.
    monkeypatch.setattr(detect_cards, "CLIPPED_PAPER", 256)
    # The bare-ground half of the proposal cap finds the At's index on its own (2026-12-01),
    # and so does the cap of 2000 (2026-12-06): both are off here.
    monkeypatch.setattr(detect_cards, "BARE_WEIGHT", 0.0)
    monkeypatch.setattr(detect_cards, "CARD_CAP", 1200)
    assert score(TableReader("allin").read(scene.image).objects, both).right == 1


@pytest.mark.parametrize(
    ("look", "seed"),
    [("washed", 5_200_207), ("clipped", 12_900_030)],  # a washed-out table; clipped paper
)
def test_training_proposes_as_the_shipped_model_learnt_without_read_time_looks(
    look: str, seed: int
) -> None:
    # The cards model learnt on proposals without the read-time looks (a washed-out photo,
    # faint print on clipped paper): `tableref train cards` must keep proposing those, or it
    # would no longer make the shipped model.
    from vision.train import CARD_PROPOSALS, _candidates

    scene = synth.card_scene(np.random.default_rng(seed), "allin")
    assert CARD_PROPOSALS[look] is False
    trained_on = _candidates("cards", scene.image)
    looked = detect_cards.card_candidates(scene.image, **{**CARD_PROPOSALS, look: True})
    assert len(looked) > len(trained_on)  # on this table the look adds proposals


def test_card_frames_made_many_at_once_are_the_frames_made_one_by_one() -> None:
    # The pair proposals are framed all at once; the single-frame rect_quad is the reference.
    rng = np.random.default_rng(5)
    centre = rng.uniform(0, 900, (50, 2)).astype(np.float32)
    width = rng.uniform(5, 60, 50).astype(np.float32)
    height = rng.uniform(5, 90, 50).astype(np.float32)
    angle = rng.uniform(-180, 180, 50)
    down = np.stack([np.cos(np.radians(angle)), np.sin(np.radians(angle))], 1).astype(np.float32)
    many = detect_cards._rects(centre, width, height, down)
    one = [
        detect.rect_quad(c, float(w), float(h), float(a))
        for c, w, h, a in zip(centre, width, height, angle, strict=True)
    ]
    assert many.shape == (50, 4, 2) and many.dtype == np.float32
    assert np.allclose(many, np.stack(one), atol=1e-3)
