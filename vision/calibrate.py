"""Table calibration: the table plane (a homography from image pixels to millimetres on the
table) and named zones on it (each seat's hand area, the All In display, the discard pile).

The table is the rectangle whose corners are the centres of four ArUco markers (4x4 dictionary,
ids 0-3 at top-left, top-right, bottom-right, bottom-left as seen from the camera's top edge),
or four corner points clicked by hand. The player measures the distances between the marker
centres; with them every read can be reported in millimetres. Zones are polygons in relative
table coordinates (0..1 across, 0..1 down), so they survive a re-calibration with the camera
moved.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.userdata import check_name, data_dir

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
MAX_CORNER_PX = 100_000.0  # far beyond any camera frame, still safe to square
FORMAT_VERSION = 1
OFF_TABLE = "off_table"  # the zone of a point outside the table's four corners

Point = tuple[float, float]
FloatArray = NDArray[np.float64]


class CalibrationError(ValueError):
    """The table could not be calibrated, or a stored calibration is unusable."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A named area of the table: a polygon in relative table coordinates (0..1, 0..1)."""

    name: str
    polygon: tuple[Point, ...]

    @classmethod
    def rect(cls, name: str, x0: float, y0: float, x1: float, y1: float) -> Zone:
        if not (0.0 <= x0 < x1 <= 1.0 and 0.0 <= y0 < y1 <= 1.0):
            raise CalibrationError(
                f"zone {name!r}: need 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1 in relative "
                f"table coordinates, got {x0}, {y0}, {x1}, {y1}"
            )
        return cls(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    def contains(self, rel: Point) -> bool:
        poly = np.asarray(self.polygon, dtype=np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(rel[0]), float(rel[1])), False) >= 0

    @classmethod
    def polygon_of(cls, name: str, points: Sequence[Sequence[float]]) -> Zone:
        pts = tuple((float(p[0]), float(p[1])) for p in points)
        if len(pts) < 3:
            raise CalibrationError(f"zone {name!r}: a polygon needs at least 3 points")
        if any(not (0.0 <= v <= 1.0) for p in pts for v in p):
            raise CalibrationError(
                f"zone {name!r}: points must lie in relative table coordinates 0..1"
            )
        zone = cls(name, pts)
        if zone.area <= 0:
            raise CalibrationError(f"zone {name!r}: the polygon has no area")
        return zone

    @property
    def area(self) -> float:
        return float(abs(cv2.contourArea(np.asarray(self.polygon, dtype=np.float32))))


def default_zones(seats: int) -> tuple[Zone, ...]:
    """Hand areas for 2-6 seats along the table edges (seat 1 nearest the camera's bottom edge,
    then clockwise as seen from above) and the centre of the table between them."""
    if not 2 <= seats <= 6:
        raise CalibrationError(f"seats must be 2 to 6, got {seats}")
    d = 0.22  # depth of a hand area from the table edge
    bottom, top = (0.0, 1.0 - d, 1.0, 1.0), (0.0, 0.0, 1.0, d)
    left, right = (0.0, d, d, 1.0 - d), (1.0 - d, d, 1.0, 1.0 - d)
    halves = {
        "bottom": [(0.0, 1.0 - d, 0.5, 1.0), (0.5, 1.0 - d, 1.0, 1.0)],
        "top": [(0.5, 0.0, 1.0, d), (0.0, 0.0, 0.5, d)],
    }
    layout: dict[int, list[tuple[float, float, float, float]]] = {
        2: [bottom, top],
        3: [bottom, left, top],
        4: [bottom, left, top, right],
        5: [*halves["bottom"], left, top, right],
        6: [*halves["bottom"], left, *halves["top"], right],
    }
    zones = [Zone.rect(f"seat{i + 1}", *r) for i, r in enumerate(layout[seats])]
    zones.append(Zone.rect("centre", d, d, 1.0 - d, 1.0 - d))
    return tuple(zones)


@dataclass(frozen=True)
class TableCalibration:
    """One table: where its four corners are in the camera image, its size, and its zones."""

    name: str
    image_corners: tuple[Point, Point, Point, Point]  # TL, TR, BR, BL in image pixels
    width_mm: float
    height_mm: float
    method: str = "manual"  # "aruco" or "manual"
    image_size: tuple[int, int] | None = None  # (width, height) of the calibration image
    zones: tuple[Zone, ...] = ()
    _h: FloatArray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_name("table", self.name)
        if self.width_mm <= 0 or self.height_mm <= 0:
            raise CalibrationError(
                f"table size must be positive, got {self.width_mm} x {self.height_mm} mm"
            )
        src = np.asarray(self.image_corners, dtype=np.float64).reshape(4, 2)
        if not np.all(np.isfinite(src)):
            raise CalibrationError("table corners must be finite numbers")
        if not _is_convex_clockwise(src):
            raise CalibrationError(
                "the four table corners must form a convex quadrilateral in the order "
                "top-left, top-right, bottom-right, bottom-left"
            )
        dst = self._mm_corners()
        h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        object.__setattr__(self, "_h", h.astype(np.float64))
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise CalibrationError(f"zone names must be unique, got {names}")

    def _mm_corners(self) -> FloatArray:
        w, h = self.width_mm, self.height_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)

    @property
    def homography(self) -> FloatArray:
        """3x3 matrix mapping image pixels (x, y, 1) to table millimetres."""
        return self._h.copy()

    def to_table(self, points: Iterable[Sequence[float]]) -> FloatArray:
        """Image pixels -> table millimetres (origin at the top-left marker)."""
        pts = np.asarray(list(points), dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self._h).reshape(-1, 2), np.float64)

    def to_image(self, points_mm: Iterable[Sequence[float]]) -> FloatArray:
        """Table millimetres -> image pixels."""
        pts = np.asarray(list(points_mm), dtype=np.float64).reshape(-1, 1, 2)
        inv = np.linalg.inv(self._h)
        return np.asarray(cv2.perspectiveTransform(pts, inv).reshape(-1, 2), np.float64)

    def relative(self, point_mm: Sequence[float]) -> Point:
        return (float(point_mm[0]) / self.width_mm, float(point_mm[1]) / self.height_mm)

    def zone_at(self, point_mm: Sequence[float]) -> str | None:
        """The zone containing a table point; the smallest one where zones overlap."""
        rel = self.relative(point_mm)
        inside = [z for z in self.zones if z.contains(rel)]
        if not inside:
            return None
        return min(inside, key=lambda z: z.area).name

    def centre_mm(self, quad: Sequence[Sequence[float]]) -> Point:
        """The table point (mm) under the centre of an object read in the image: the
        intersection of its quad's diagonals, the true centre of a card seen in perspective."""
        cx, cy = _quad_centre(self.to_table(quad))
        return (float(cx), float(cy))

    def locate(self, quad: Sequence[Sequence[float]]) -> dict[str, Any]:
        """Where an object read in the image lies on the table: its quad and centre in mm, and
        the zone its centre falls in (None when outside every zone, "off_table" when outside
        the table)."""
        quad_mm = self.to_table(quad)
        cx, cy = (float(v) for v in _quad_centre(quad_mm))
        rel = self.relative((cx, cy))
        on_table = 0.0 <= rel[0] <= 1.0 and 0.0 <= rel[1] <= 1.0
        return {
            "centre_mm": [round(cx, 1), round(cy, 1)],
            "quad_mm": [[round(float(x), 1), round(float(y), 1)] for x, y in quad_mm],
            "zone": self.zone_at((cx, cy)) if on_table else OFF_TABLE,
        }

    def for_frame(self, width: int, height: int) -> TableCalibration:
        """The same calibration for frames of another resolution from the same camera (the
        dashboard preview, a lower capture mode): corners scale with the frame. A different
        aspect ratio means a different crop of the sensor, which no scaling can undo."""
        if self.image_size is None or self.image_size == (width, height):
            return self
        w0, h0 = self.image_size
        if abs(width / height - w0 / h0) > 0.01:
            raise CalibrationError(
                f"table {self.name!r} was calibrated on {w0}x{h0} frames; {width}x{height} has "
                "another aspect ratio: calibrate again at this resolution"
            )
        sx, sy = width / w0, height / h0
        corners = tuple((x * sx, y * sy) for x, y in self.image_corners)
        return replace(self, image_corners=corners, image_size=(width, height))  # type: ignore[arg-type]

    def with_zone(self, zone: Zone) -> TableCalibration:
        """A copy with ``zone`` added, replacing any zone of the same name."""
        others = tuple(z for z in self.zones if z.name != zone.name)
        return replace(self, zones=(*others, zone))

    def without_zone(self, name: str) -> TableCalibration:
        if name not in {z.name for z in self.zones}:
            raise CalibrationError(f"table {self.name!r} has no zone {name!r}")
        return replace(self, zones=tuple(z for z in self.zones if z.name != name))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "name": self.name,
            "method": self.method,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "image_corners": [[float(x), float(y)] for x, y in self.image_corners],
            "image_size": list(self.image_size) if self.image_size else None,
            "homography": self._h.tolist(),
            "zones": [
                {"name": z.name, "polygon": [list(p) for p in z.polygon]} for z in self.zones
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableCalibration:
        try:
            if data.get("version") != FORMAT_VERSION:
                raise CalibrationError(f"unsupported calibration version {data.get('version')}")
            corners = tuple((float(x), float(y)) for x, y in data["image_corners"])
            if len(corners) != 4:
                raise CalibrationError("a calibration needs exactly 4 image corners")
            size = data.get("image_size")
            zones = tuple(_zone_from_json(z) for z in data.get("zones", []))
            return cls(
                name=str(data["name"]),
                image_corners=corners,
                width_mm=float(data["width_mm"]),
                height_mm=float(data["height_mm"]),
                method=str(data.get("method", "manual")),
                image_size=(int(size[0]), int(size[1])) if size else None,
                zones=zones,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"malformed calibration: {exc!r}") from exc


def _zone_from_json(data: Any) -> Zone:
    """A stored zone, checked as one defined on the command line is (a hand-edited file
    with a zone outside the table or of two points is refused, naming the zone)."""
    if not isinstance(data, dict) or "name" not in data or "polygon" not in data:
        raise CalibrationError(f"a zone needs a 'name' and a 'polygon', got {data!r}")
    name = str(data["name"])
    try:
        check_name("zone", name)
    except ValueError as exc:
        raise CalibrationError(str(exc)) from exc
    try:
        points = [(float(x), float(y)) for x, y in data["polygon"]]
    except (TypeError, ValueError) as exc:
        raise CalibrationError(
            f"zone {name!r}: the polygon must be a list of [x, y] pairs, got {data['polygon']!r}"
        ) from exc
    return Zone.polygon_of(name, points)


def _quad_centre(quad: FloatArray) -> FloatArray:
    """Intersection of the diagonals: the true centre of a rectangle seen in perspective."""
    p0, p1, p2, p3 = (quad[i] for i in range(4))
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-12:
        return np.asarray(quad.mean(axis=0), dtype=np.float64)
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    return np.asarray(p0 + t * d1, dtype=np.float64)


def _is_convex_clockwise(quad: FloatArray) -> bool:
    """True when TL, TR, BR, BL run clockwise on screen (y down) and the quad is convex."""
    signs = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        signs.append(cross)
    return all(s > 0 for s in signs)


# -- finding the table --------------------------------------------------------------------------
def from_corners(
    name: str,
    corners: Sequence[Sequence[float]],
    width_mm: float,
    height_mm: float,
    *,
    image_size: tuple[int, int] | None = None,
    zones: Sequence[Zone] = (),
) -> TableCalibration:
    """Calibrate from four corners clicked by hand (the dashboard sends them), in the order
    top-left, top-right, bottom-right, bottom-left."""
    if len(corners) != 4 or any(len(c) != 2 for c in corners):
        raise CalibrationError(f"need 4 corners as (x, y) pairs, got {list(corners)!r}")
    pts = tuple((float(c[0]), float(c[1])) for c in corners)
    for label, (x, y) in zip(CORNER_NAMES, pts, strict=True):
        # A click lies on a camera frame: anything far outside one is a malformed request, and
        # infinities would turn the convexity check into NaN comparisons that pass silently.
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > MAX_CORNER_PX:
            raise CalibrationError(
                f"the {label} corner ({x:g}, {y:g}) is not a point on a camera frame "
                f"(each coordinate must be a finite number of pixels within ±{MAX_CORNER_PX:g})"
            )
    return TableCalibration(
        name,
        pts,  # type: ignore[arg-type]
        width_mm,
        height_mm,
        method="manual",
        image_size=image_size,
        zones=tuple(zones),
    )


def detect_markers(image: NDArray[np.uint8]) -> dict[int, FloatArray]:
    """Every ArUco marker of the table dictionary in the image: id -> its 4 corners (px)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.flatten(), strict=True):
        q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        mid = int(marker_id)
        # With duplicates, keep the biggest: a stray small print is less likely the real one.
        if mid not in found or cv2.contourArea(q.astype(np.float32)) > cv2.contourArea(
            found[mid].astype(np.float32)
        ):
            found[mid] = q
    return found


def from_markers(
    name: str,
    image: NDArray[np.uint8],
    width_mm: float,
    height_mm: float,
    *,
    zones: Sequence[Zone] = (),
) -> TableCalibration:
    """Calibrate from the four corner markers visible in ``image``."""
    markers = detect_markers(image)
    missing = [f"{i} ({CORNER_NAMES[i]})" for i in CORNER_IDS if i not in markers]
    if missing:
        raise CalibrationError(
            "table markers not found: " + ", ".join(missing) + " — print them with "
            "`tableref calibrate markers`, put them flat at the table corners, fully in view"
        )
    centres = [_quad_centre(markers[i]).tolist() for i in CORNER_IDS]
    size = (int(image.shape[1]), int(image.shape[0]))
    found = from_corners(name, centres, width_mm, height_mm, image_size=size, zones=zones)
    return replace(found, method="aruco")


# -- storage ------------------------------------------------------------------------------------
def table_path(name: str, root: str | Path | None = None) -> Path:
    return data_dir(root) / "tables" / f"{check_name('table', name)}.json"


def save(calibration: TableCalibration, root: str | Path | None = None) -> Path:
    path = table_path(calibration.name, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(calibration.to_json(), indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)  # atomic: a crash never leaves half a calibration behind
    return path


def load(name: str, root: str | Path | None = None) -> TableCalibration:
    path = table_path(name, root)
    if not path.is_file():
        raise CalibrationError(
            f"no calibration for table {name!r} (looked in {path}); run `tableref calibrate table`"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"calibration file {path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise CalibrationError(f"calibration file {path}: expected a JSON object")
    try:
        return TableCalibration.from_json(data)
    except CalibrationError as exc:
        raise CalibrationError(f"calibration file {path}: {exc}") from exc


def list_tables(root: str | Path | None = None) -> list[str]:
    folder = data_dir(root) / "tables"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def locate_objects(
    calibration: TableCalibration, objects: Iterable[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Add a ``"table"`` entry (mm and zone) to each object read ``{"label", "quad", ...}``."""
    return [{**obj, "table": calibration.locate(obj["quad"])} for obj in objects]


# -- a printable marker sheet -------------------------------------------------------------------
A4_MM = (210.0, 297.0)


def marker_sheet(marker_mm: float = 60.0, dpi: int = 300) -> NDArray[np.uint8]:
    """An A4 page (portrait, grayscale) with the four corner markers, each with its id and
    corner name, and a dashed cut line around it. Print at 100% scale."""
    if not 20.0 <= marker_mm <= 90.0:
        raise CalibrationError(f"marker size must be 20-90 mm to fit 4 on A4, got {marker_mm}")
    px_per_mm = dpi / 25.4
    page = np.full((round(A4_MM[1] * px_per_mm), round(A4_MM[0] * px_per_mm)), 255, dtype=np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    side = round(marker_mm * px_per_mm)
    quiet = round(8 * px_per_mm)  # white margin the detector needs around the black border
    cell_w, cell_h = page.shape[1] // 2, page.shape[0] // 2
    for i in CORNER_IDS:
        col, row = (0, 1, 1, 0)[i], (0, 0, 1, 1)[i]
        cx, cy = col * cell_w + cell_w // 2, row * cell_h + cell_h // 2
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(dictionary, i, side)
        box = (x0 - quiet, y0 - quiet, x0 + side + quiet, y0 + side + quiet)
        _dashed_rect(page, box, step=round(3 * px_per_mm))
        # Ticks on the cut line mark the marker's centre lines, for measuring between centres.
        tick = round(4 * px_per_mm)
        for x, y, dx, dy in (
            (cx, box[1], 0, -1),
            (cx, box[3], 0, 1),
            (box[0], cy, -1, 0),
            (box[2], cy, 1, 0),
        ):
            cv2.line(page, (x, y), (x + dx * tick, y + dy * tick), 0, 2)
        scale = px_per_mm * 0.16
        for k, text in enumerate((f"marker {i}", CORNER_NAMES[i])):
            cv2.putText(
                page,
                text,
                (box[0], box[3] + round((8 + 7 * k) * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                0,
                max(1, round(scale * 2)),
                cv2.LINE_AA,
            )
    note = f"tableref table markers - print at 100% (side {marker_mm:g} mm)"
    cv2.putText(
        page,
        note,
        (round(10 * px_per_mm), round(8 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        px_per_mm * 0.16,
        0,
        max(1, round(px_per_mm * 0.3)),
        cv2.LINE_AA,
    )
    return page


def _dashed_rect(img: NDArray[np.uint8], box: tuple[int, int, int, int], step: int) -> None:
    x0, y0, x1, y1 = box
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        length = int(np.hypot(b[0] - a[0], b[1] - a[1]))
        for s in range(0, length, 2 * step):
            t0, t1 = s / length, min(1.0, (s + step) / length)
            p = (round(a[0] + (b[0] - a[0]) * t0), round(a[1] + (b[1] - a[1]) * t0))
            q = (round(a[0] + (b[0] - a[0]) * t1), round(a[1] + (b[1] - a[1]) * t1))
            cv2.line(img, p, q, 128, 2)


def write_marker_sheet(path: str | Path, marker_mm: float = 60.0, dpi: int = 300) -> Path:
    """Write the sheet as PNG (or PDF when ``path`` ends in .pdf, with the page size set so it
    prints at true scale)."""
    out = Path(path)
    page = marker_sheet(marker_mm, dpi)
    if out.suffix.lower() == ".pdf":
        from PIL import Image

        Image.fromarray(page).save(out, "PDF", resolution=float(dpi))
    elif out.suffix.lower() == ".png":
        if not cv2.imwrite(str(out), page):
            raise CalibrationError(f"could not write {out}")
    else:
        raise CalibrationError(f"marker sheet must be .png or .pdf, got {out.name}")
    return out
