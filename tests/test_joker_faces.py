"""Jokers found by their whole face (vision.joker_faces)."""

from __future__ import annotations

import numpy as np
import pytest

from host.cli.enroll import deck_order, default_grid
from vision import detect, detect_tiles, joker_faces, synth_unseen
from vision.matching import same_object

ORDER = deck_order("rummikub")
JOKERS = {t for t in ORDER if joker_faces.is_joker(t)}


def _layout(seed: int) -> synth_unseen.Layout:
    cols, _ = default_grid(len(ORDER))
    return synth_unseen.layout_scene("rummikub", ORDER, cols, np.random.default_rng(seed))


@pytest.fixture(scope="module")
def enrolled() -> tuple[np.ndarray, list[str]]:
    """The unseen tile deck's faces as enrolment keeps them (development layout 11)."""
    layout = _layout(11)
    thumbs = [(t.label, joker_faces.thumbnails(layout.image, t.quad)) for t in layout.truths]
    return np.concatenate([f for _, f in thumbs]), [x for x, f in thumbs for _ in range(len(f))]


def test_a_faces_thumbnails_are_its_outline_and_jitters_both_ways_up(
    enrolled: tuple[np.ndarray, list[str]],
) -> None:
    faces, labels = enrolled
    assert len(faces) == len(labels) == len(ORDER) * 2 * 5
    assert np.allclose(np.linalg.norm(faces, axis=1), 1.0, atol=1e-5)


def test_the_jokers_of_another_layout_are_found_by_their_faces_and_no_number_is(
    enrolled: tuple[np.ndarray, list[str]],
) -> None:
    """Another photo of the deck laid out (layout 12: other light, tilt and table), nothing
    read on it: every joker is found where it lies, named right, and no numbered tile is
    taken for one."""
    faces, labels = enrolled
    table = _layout(12)
    found = joker_faces.jokers(table.image, [], faces, labels)
    named = {}
    for label, p, alts, quad in found:
        (truth,) = [t.label for t in table.truths if same_object(quad, t.quad)]
        named[truth] = label
        assert 0.0 < p <= 1.0 and alts[0][0] == label
    assert named == {j: j for j in JOKERS}


def test_a_face_already_read_is_left_alone(enrolled: tuple[np.ndarray, list[str]]) -> None:
    faces, labels = enrolled
    table = _layout(12)
    read = [t.quad for t in table.truths if t.label in ("CJ", "MJ")]
    found = {label for label, *_ in joker_faces.jokers(table.image, read, faces, labels)}
    assert found == JOKERS - {"CJ", "MJ"}


def test_a_deck_without_jokers_enrolled_finds_none(enrolled: tuple[np.ndarray, list[str]]) -> None:
    faces, labels = enrolled
    numbers = [k for k, x in enumerate(labels) if x not in JOKERS]
    table = _layout(12)
    assert joker_faces.jokers(table.image, [], faces[numbers], [labels[k] for k in numbers]) == []


def test_a_read_on_a_jokers_face_is_part_of_it() -> None:
    face = np.array([[0, 0], [40, 0], [40, 56], [0, 56]], np.float32)
    star = np.array([[5, 30], [20, 30], [20, 50], [5, 50]], np.float32)  # one star of two
    beside = star + np.array([45, 0], np.float32)
    assert joker_faces.within(star, face)
    assert not joker_faces.within(beside, face)


def _tile(x: float, y: float = 100.0) -> np.ndarray:
    return np.array([[x, y], [x + 30, y], [x + 30, y + 42], [x, y + 42]], np.float32)


def test_a_rows_ends_are_places_to_look() -> None:
    from vision import tile_rows

    row = [_tile(100), _tile(130), _tile(160)]
    ends = tile_rows.row_ends(row)
    assert sorted(round(float(q[:, 0].min())) for q in ends) == [70, 190]
    assert tile_rows.row_ends([_tile(100)]) == []  # a lone tile makes no row
    # A tile further on, one tile's room between: that room is the row's end (and a gap),
    # and the lone tile, touching none, has no ends of its own.
    further = tile_rows.row_ends([*row, _tile(220)])
    assert sorted(round(float(q[:, 0].min())) for q in further) == [70, 190]
    assert [round(float(q[:, 0].min())) for q in tile_rows.row_gaps([*row, _tile(220)])] == [190]


def test_a_view_captured_again_replaces_its_faces_and_bar() -> None:
    """Enrolment keeps each tile's face thumbnails and each view's bar; a view captured again
    replaces them as it replaces the view's crops: a tile missing from the new photo has no
    faces left either."""
    from vision.enrol_session import Enrolment
    from vision.reader import TableReader

    cols, rows = default_grid(len(ORDER))
    session = Enrolment(TableReader("rummikub"), "t", ORDER, cols, rows)
    session.capture(1, _layout(11).image)
    once = session.profile(partial=True)
    gap = ["" if t == "b7" else t for t in ORDER]
    second = synth_unseen.layout_scene("rummikub", gap, cols, np.random.default_rng(12))
    session.capture(1, second.image)
    again = session.profile(partial=True)
    assert once.faces is not None and again.faces is not None
    assert set(once.face_labels) == set(ORDER)
    assert set(again.face_labels) == set(ORDER) - {"b7"} == set(again.cards) - {"none"}
    assert len(again.face_labels) == len(once.face_labels) - 10
    assert once.mark is not None and again.mark is not None and list(session.marks) == [1]


def test_only_faces_about_a_read_tiles_size_are_looked_at() -> None:
    read = [_tile(100), _tile(140), _tile(180)]
    joker = _tile(220)
    small = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float32)  # a pip, a star
    table = np.array([[0, 0], [998, 0], [998, 748], [0, 748]], np.float32)
    assert [q.tolist() for q in joker_faces.tile_sized([joker, small, table], read)] == [
        joker.tolist()
    ]
    # Too few reads to tell a tile's size: every face is looked at.
    assert len(joker_faces.tile_sized([joker, small, table], read[:2])) == 3


def test_a_white_table_is_not_taken_for_one_jokers_face() -> None:
    """On a white table the pale table is one rectangle about a tile's shape: taken for a
    double joker's face, the whole photo replaced every tile read on it (1 object left of
    the 38 tiles; development print 201, scene 9 700 017)."""
    from vision.enrol_session import Enrolment
    from vision.reader import TableReader

    deck = synth_unseen.deck_print(201)
    cols, rows = default_grid(len(ORDER))
    layout = synth_unseen.layout_scene(
        "rummikub", ORDER, cols, np.random.default_rng(11), deck=deck
    )
    session = Enrolment(TableReader("rummikub"), "t", ORDER, cols, rows)
    session.capture(1, layout.image)
    reader = TableReader("rummikub")
    reader.use_deck(session.profile(partial=True))
    scene = synth_unseen.scene("rummikub", np.random.default_rng(9_700_017), deck=deck)
    objects = reader.read(scene.image).objects
    right = [
        o
        for o in objects
        if any(t.label == o.label and same_object(o.quad, t.quad) for t in scene.truths)
    ]
    # 20 or more with the int8 tile model; 19 where the CPU has no VNNI and the float model is
    # read (recognise.int8_saturates; measured on a 2-core AMD EPYC, 2026-12-02).
    assert len(scene.truths) == 38 and len(right) >= 19
    w = scene.image.shape[1]
    assert all(float(np.ptp(o.quad[:, 0])) < w / 4 for o in objects)


def test_a_face_is_read_only_by_a_frame_about_its_size() -> None:
    # Half a double joker's face (one star) read as a 4 covers the face, but it is no read
    # of the whole face: the face is still looked at as a joker's.
    face = detect.rect_quad(np.array([200, 200], np.float32), 72.0, 100.0, 90.0)
    # The face's upper half as detect proposes it (its long axis turned a quarter).
    half = detect.rect_quad(np.array([200, 175], np.float32), 50.0, 72.0, 180.0)
    assert same_object(face, half)
    assert not joker_faces._read_at(face, [half])
    assert joker_faces._read_at(face, [face + 3.0])


def test_an_enrolled_tile_read_searches_for_tile_faces_once(
    enrolled: tuple[np.ndarray, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The detector's proposals and the joker faces look at the same faces of the photo: a
    read with an enrolled deck finds them once and hands them to both, which then propose
    and find what each would have found by searching itself."""
    from vision.enrol_session import Enrolment
    from vision.reader import TableReader

    table = _layout(12)
    on_table = detect_tiles.tile_faces(table.image)
    assert [q.tolist() for q in detect_tiles.tile_candidates(table.image, faces=on_table)] == [
        q.tolist() for q in detect_tiles.tile_candidates(table.image)
    ]
    faces, labels = enrolled
    read = [t.quad for t in table.truths if t.label in ("CJ", "k5")]
    alone = joker_faces.jokers(table.image, read, faces, labels)
    given = joker_faces.jokers(table.image, read, faces, labels, on_table)
    assert [(a[0], a[1], a[3].tolist()) for a in given] == [
        (a[0], a[1], a[3].tolist()) for a in alone
    ]
    with pytest.raises(ValueError, match="read_time"):
        detect_tiles.tile_candidates(table.image, read_time=False, faces=on_table)

    reader = TableReader("rummikub")
    cols, rows = default_grid(len(ORDER))
    session = Enrolment(reader, "t", ORDER, cols, rows)
    session.capture(1, _layout(11).image)
    reader.use_deck(session.profile(partial=True))
    searches = []
    face_tiles = detect_tiles.face_tiles

    def counted(*args: object, **kwargs: object) -> list[np.ndarray]:
        searches.append(1)
        return face_tiles(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detect_tiles, "face_tiles", counted)
    objects = reader.read(table.image).objects
    assert len(searches) == 1
    assert {o.label for o in objects} & JOKERS
