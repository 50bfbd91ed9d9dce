"""Test drawings written the way Inkscape, QGIS and GDAL write files: layers as groups with
translate transforms, ``inkscape:label`` names, relative path commands, mm document units."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from coinprint.fileio import read_bytes
from coinprint.source import LayoutFile, read_layout_data

INKSCAPE_HEAD = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg
   width="{width}"
   height="{height}"
   viewBox="{viewbox}"
   version="1.1"
   id="svg5"
   inkscape:version="1.2.2 (b0a8486541, 2022-12-01)"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg">
  <sodipodi:namedview id="namedview7" inkscape:document-units="mm" />
  <defs id="defs2" />
"""


def read_layout_file(path: str | Path, **options: Any) -> LayoutFile:
    """The layout file at ``path`` read as the command line reads it: its bytes read once,
    then :func:`coinprint.source.read_layout_data` (``options``: ``game``, ``units``,
    ``tolerance_mm``)."""
    return read_layout_data(read_bytes(path), source=str(path), **options)


def inkscape_svg(body: str, *, width: str = "210mm", height: str = "297mm", viewbox: str = "0 0 210 297") -> str:
    return INKSCAPE_HEAD.format(width=width, height=height, viewbox=viewbox) + body + "\n</svg>\n"


def layer(label: str, inner: str, *, transform: str | None = None, hidden: bool = False) -> str:
    extra = f' transform="{transform}"' if transform else ""
    style = ' style="display:none"' if hidden else ""
    return (
        f'  <g inkscape:groupmode="layer" id="layer-{label}" inkscape:label="{label}"{extra}{style}>\n{inner}\n  </g>'
    )


def group(label: str, inner: str) -> str:
    return f'    <g id="g-{label}" inkscape:label="{label}">\n{inner}\n    </g>'


def relative_path(label: str, points: Sequence[tuple[float, float]], *, path_id: str | None = None) -> str:
    """A closed polygon written with relative commands (``m`` then ``l``/``h``/``v``), as Inkscape does."""
    x0, y0 = points[0]
    parts = [f"m {_number(x0)},{_number(y0)}"]
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        dx, dy = _number(bx - ax), _number(by - ay)
        parts.append(f"h {dx}" if dy == "0" else f"v {dy}" if dx == "0" else f"l {dx},{dy}")
    parts.append("z")
    label_attr = f' inkscape:label="{label}"' if label else ""
    return f'      <path style="fill:#f2e6c9;stroke:#000000;stroke-width:0.3" d="{" ".join(parts)}" id="{path_id or "path-" + label}"{label_attr} />'


def _number(value: float) -> str:
    """A coordinate as Inkscape writes it: up to 8 significant digits, no trailing zeros."""
    text = f"{value:.8g}"
    return "0" if text in ("-0", "0") else text


def hex_grid_svg(
    layout,
    *,
    round_to: float = 0.1,
    page_mm: float = 300.0,
    grow: dict[str, float] | None = None,
    midpoints: bool = False,
) -> str:
    """A Coin Table layout drawn as an Inkscape file: every hex a relative path in a
    translated layer, coordinates rounded to ``round_to`` mm; ``grow`` scales named cells;
    ``midpoints`` adds a node in the middle of every side."""
    shift = 20.0
    minx, miny, _, _ = layout.bounds
    paths = []
    for space in layout.spaces:
        ring = list(space.rings[0][:-1])
        if midpoints:  # a node in the middle of every side, as a drawing often has
            ring = [p for a, b in zip(ring, ring[1:] + ring[:1]) for p in (a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))]
        factor = (grow or {}).get(space.name, 1.0)
        cx = sum(p[0] for p in ring) / len(ring)
        cy = sum(p[1] for p in ring) / len(ring)
        points = []
        for x, y in ring:
            x, y = cx + (x - cx) * factor, cy + (y - cy) * factor
            # Page coordinates: y down from the top of the page, then rounded as a drawing is.
            px, py = x - minx, page_mm - shift - (y - miny) - shift
            points.append((round(px / round_to) * round_to, round(py / round_to) * round_to))
        points.append(points[0])
        paths.append(relative_path(space.name, points))
    body = layer("Board", "\n".join(paths), transform=f"translate({shift:g},{shift:g})")
    size = f"{page_mm:g}mm"
    return inkscape_svg(body, width=size, height=size, viewbox=f"0 0 {page_mm:g} {page_mm:g}")


def layout_svg(layout, game: str, *, page_mm: float = 300.0) -> str:
    """Any layout as an Inkscape drawing: Coin Age spaces grouped by region, others in one
    layer in layout order (a Map's drawing order), the card as a rectangle named card."""
    minx, miny, _, maxy = layout.bounds

    def page(points: Iterable[Sequence[float]]) -> list[tuple[float, float]]:
        return [(x - minx + 10, page_mm - (y - miny) - 10) for x, y in points]

    body = []
    if game == "coinage":
        regions: dict[str, list[str]] = {}
        for space in layout.spaces:
            regions.setdefault(space.region, []).append(relative_path(space.name, page(space.rings[0])))
        inner = "\n".join(group(name, "\n".join(paths)) for name, paths in regions.items())
        card = layout.features_with_role("card")[0].shape.bounds
        (x0, y1), (x1, y0) = page([(card[0], card[1]), (card[2], card[3])])
        body.append(
            layer(
                "Card",
                f'    <rect id="rect1" inkscape:label="card" x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" />',
            )
        )
        body.append(layer("Map", inner))
    else:
        ordered = sorted(layout.spaces, key=lambda s: s.order or 0)
        body.append(
            layer(
                "Map", "\n".join(relative_path("", page(s.rings[0]), path_id=f"path{i}") for i, s in enumerate(ordered))
            )
        )
    size = f"{page_mm:g}mm"
    return inkscape_svg("\n".join(body), width=size, height=size, viewbox=f"0 0 {page_mm:g} {page_mm:g}")


def qgis_geojson(layout, *, crs: str | None = "urn:ogc:def:crs:EPSG::3857", scale: float = 1.0) -> str:
    """A layout as QGIS saves a polygon layer: a named collection, a crs member,
    MultiPolygon geometries, an ``fid`` and a ``name`` field, no coinprint member."""
    features = []
    for number, space in enumerate(layout.spaces, start=1):
        rings = [[[round(x * scale, 6), round(y * scale, 6)] for x, y in ring] for ring in space.rings]
        props = {"fid": number, "name": space.name}
        if space.region:
            props["region"] = space.region
        features.append(
            {"type": "Feature", "properties": props, "geometry": {"type": "MultiPolygon", "coordinates": [rings]}}
        )
    doc: dict = {"type": "FeatureCollection", "name": "board"}
    if crs:
        doc["crs"] = {"type": "name", "properties": {"name": crs}}
    doc["features"] = features
    return json.dumps(doc, indent=1)


def circle_area(radius: float) -> float:
    return math.pi * radius * radius


# -- files made by the real tools ------------------------------------------------------------------------
def inkscape_saved(folder, text: str, *actions: str, plain: bool = False, source="drawn.svg", name="saved.svg"):
    """``text`` written to ``folder / source`` and saved by Inkscape (see :func:`inkscape_resave`)
    as ``folder / name``, which is returned."""
    drawn, saved = folder / source, folder / name
    drawn.write_text(text)
    inkscape_resave(drawn, saved, *actions, plain=plain)
    return saved


def inkscape_resave(source, target, *actions: str, plain: bool = False) -> None:
    """Open ``source`` in Inkscape, run ``actions`` (e.g. ``select-all``, ``object-to-path``,
    ``selection-group``, ``clone``) and save as ``target``: Inkscape's own namespaces, ids,
    path data and transforms. Skips the test when Inkscape is not installed."""
    import os
    import shutil
    import subprocess

    import pytest

    inkscape = shutil.which("inkscape")
    if inkscape is None:
        pytest.skip("inkscape is not installed (Debian package inkscape)")
    home = os.path.dirname(os.path.abspath(target))
    env = {**os.environ, "HOME": home, "XDG_RUNTIME_DIR": home, "XDG_CONFIG_HOME": home}
    steps = list(actions) + [
        f"export-filename:{target}",
        "export-plain-svg" if plain else "export-type:svg",
        "export-do",
    ]
    subprocess.run(
        [inkscape, str(source), f"--actions={';'.join(steps)}"],
        check=True,
        capture_output=True,
        timeout=120,
        env=env,
    )
    if not os.path.exists(target):
        raise AssertionError(f"inkscape wrote no {target}")


def ogr2ogr(*arguments: str) -> None:
    """Run GDAL's ogr2ogr; skips the test when GDAL is not installed."""
    import shutil
    import subprocess

    import pytest

    tool = shutil.which("ogr2ogr")
    if tool is None:
        pytest.skip("ogr2ogr is not installed (Debian package gdal-bin)")
    subprocess.run([tool, *arguments], check=True, capture_output=True, timeout=120)


def brick_card_svg(*, gap_above_b_mm: float = 0.0, unit_width: str = "150mm") -> str:
    """The classic Coin Age map drawn as a designer snaps it together: ``<rect>`` bricks,
    three rows (A 3 bricks of 40 mm, B 4 of 30 mm, C 3 of 40 mm, each 30 mm high) whose
    corners fall in the middle of the neighbouring row's sides (T-junctions), one layer per
    region. ``gap_above_b_mm`` moves the top of row B down, leaving a real gap above it."""
    bricks, regions = BRICKS, BRICK_REGIONS
    layers = []
    for number, (region, names) in enumerate(regions.items(), start=1):
        rects = []
        for name in names:
            x, y, w = bricks[name]
            h = 30.0
            if name.startswith("B"):
                y, h = y + gap_above_b_mm, h - gap_above_b_mm
            rects.append(
                f'    <rect id="rect{100 + len(layers) * 10 + len(rects)}" inkscape:label="{name}" '
                f'x="{x + 15:g}" y="{y + 10:g}" width="{w:g}" height="{h:g}" style="fill:#f2e6c9;stroke:#000;stroke-width:0.3" />'
            )
        layers.append(
            f'  <g inkscape:groupmode="layer" id="layer{number}" inkscape:label="{region}">\n'
            + "\n".join(rects)
            + "\n  </g>"
        )
    return inkscape_svg("\n".join(layers), width=unit_width, height="110mm", viewbox="0 0 150 110")


def scour(source, target, *options: str) -> None:
    """Save ``source`` as Inkscape's *Optimized SVG* does (it runs Scour, without the editor's
    data: labels and layers go); skips the test when Scour is not installed."""
    import shutil
    import subprocess

    import pytest

    tool = shutil.which("scour")
    if tool is None:
        pytest.skip("scour is not installed (Debian package scour)")
    subprocess.run([tool, "-i", str(source), "-o", str(target), *options], check=True, capture_output=True, timeout=120)


BRICKS = {
    "A1": (0, 0, 40), "A2": (40, 0, 40), "A3": (80, 0, 40),
    "B1": (0, 30, 30), "B2": (30, 30, 30), "B3": (60, 30, 30), "B4": (90, 30, 30),
    "C1": (0, 60, 40), "C2": (40, 60, 40), "C3": (80, 60, 40),
}  # fmt: skip
"""The classic Coin Age map as bricks: x, y (from the top) and width in mm, 30 mm high."""
BRICK_REGIONS = {"north": ["A1", "A2", "A3", "B1"], "west": ["C1", "B2", "B3"], "east": ["B4", "C3"], "south": ["C2"]}

FODG_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.graphics">
 <office:styles>
  <style:style style:name="space" style:family="graphic">
   <style:graphic-properties draw:fill="solid" draw:fill-color="#f2e6c9" svg:stroke-color="#000000"
    draw:auto-grow-height="false" draw:auto-grow-width="false"/>
  </style:style>
 </office:styles>
 <office:automatic-styles>
  <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="150mm" fo:page-height="110mm"
   fo:margin-top="0mm" fo:margin-bottom="0mm" fo:margin-left="0mm" fo:margin-right="0mm"/></style:page-layout>
  <style:style style:name="dp1" style:family="drawing-page"/>
 </office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Default" style:page-layout-name="PM1" draw:style-name="dp1"/>
 </office:master-styles>
 <office:body><office:drawing><draw:page draw:name="page1" draw:master-page-name="Default">
"""


def brick_card_fodg(*, round_b1: bool = False, text_box: str | None = None) -> str:
    """The brick card as a LibreOffice Draw flat document (.fodg): a rectangle per space in a
    group per region; every other space named by its title (Name ▸ Description: Title), the
    others by the text typed into them; each space's description names its region. With
    ``round_b1`` B1 is an ellipse (a custom shape) 14 mm wide in its brick instead; the space named
    ``text_box`` is named only by a text box (Insert ▸ Text Box) drawn over it. Shapes keep
    the size they are drawn at (no growing to fit their text), so every LibreOffice draws them
    alike."""
    shapes = []
    for region, names in BRICK_REGIONS.items():
        inner = []
        for k, name in enumerate(names):
            x, y, w = BRICKS[name]
            box = f'draw:style-name="space" svg:x="{x + 15}mm" svg:y="{y + 10}mm" svg:width="{w}mm" svg:height="30mm"'
            said = f"<svg:title>{name}</svg:title>" if k % 2 == 0 and name != text_box else ""
            said += f"<svg:desc>{region}</svg:desc>"
            typed = "" if k % 2 == 0 or name == text_box else f"<text:p>{name}</text:p>"
            if round_b1 and name == "B1":
                # 14 mm wide in the middle of its 30 mm brick: too narrow for a quarter.
                box = f'draw:style-name="space" svg:x="{x + 15 + 8}mm" svg:y="{y + 10}mm" svg:width="14mm" svg:height="30mm"'
                shapes_xml = '<draw:enhanced-geometry svg:viewBox="0 0 21600 21600" draw:type="ellipse"/>'
                inner.append(
                    f'<draw:custom-shape draw:name="{name}" {box}>{said}{typed}{shapes_xml}</draw:custom-shape>'
                )
            else:
                inner.append(f'<draw:rect draw:name="{name}" {box}>{said}{typed}</draw:rect>')
        shapes.append(f'<draw:g draw:name="{region}">{"".join(inner)}</draw:g>')
    if text_box:
        x, y, w = BRICKS[text_box]
        shapes.append(
            f'<draw:frame svg:x="{x + 15 + w / 2 - 5}mm" svg:y="{y + 20}mm" svg:width="10mm" svg:height="8mm">'
            f"<draw:text-box><text:p>{text_box}</text:p></draw:text-box></draw:frame>"
        )
    return FODG_HEAD + "\n".join(shapes) + "\n</draw:page></office:drawing></office:body></office:document>\n"


def libreoffice_svg(fodg: str, folder) -> Path:
    """Export the LibreOffice Draw document ``fodg`` (its text) to SVG with LibreOffice
    itself (``soffice --headless --convert-to svg``); skips the test when it is not installed."""
    import os
    import shutil
    import subprocess

    import pytest

    tool = shutil.which("soffice")
    if tool is None:
        pytest.skip("LibreOffice is not installed (Debian packages libreoffice-draw, soffice)")
    folder = Path(folder)
    source = folder / "drawing.fodg"
    source.write_text(fodg, encoding="utf-8")
    home = folder / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home)}
    subprocess.run(
        [tool, "--headless", "--convert-to", "svg", "--outdir", str(folder), str(source)],
        check=True,
        capture_output=True,
        timeout=180,
        env=env,
    )
    target = folder / "drawing.svg"
    if not target.exists():
        raise AssertionError("LibreOffice wrote no drawing.svg")
    return target
