"""Reading a drawing (SVG from Inkscape, Illustrator, Affinity, …) into shapes in mm.

The bytes are first run through the XML parser alone, counting elements and refusing
entity declarations in any encoding it reads. Then clones (``<use>``) are replaced by copies
of what they clone, counted before anything is copied. The XML is walked once with the
standard library to learn what each element is (its own name, the nearest named enclosing
group, whether it is hidden or inside ``<defs>``), and every shape and text gets a private
key attribute. svgelements then parses the same document (units,
viewBox, transforms) and each of its shapes is matched to the walk by that key. Curves and
arcs are flattened finely enough that areas come out right to better than 0.1 %.

Coordinates come out in mm with y up: the drawing's top edge is at y = page height.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from copy import deepcopy as copy_element
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, SupportsFloat

from coinprint.caps import (
    MAX_COORDINATE_MM,
    MAX_DRAWING_ELEMENTS,
    MAX_DRAWING_NUMBERS,
    MAX_DRAWING_SHAPES,
    MAX_FLATTENED_POINTS,
    MAX_SPACE_NUMBERS,
    MAX_SPACE_POINTS,
    MAX_TRANSFORM_STEPS,
)
from coinprint.errors import UnreadableInputError
from coinprint.io.libreoffice import as_drawn, is_libreoffice_export

if TYPE_CHECKING:
    import svgelements

PX_PER_INCH = 96.0
MM_PER_PX = 25.4 / PX_PER_INCH
KEY = "coinprintkey"
"""The attribute the walk adds to each element so svgelements' shapes can be matched to it."""
SHAPE_TAGS = {"path", "rect", "circle", "ellipse", "polygon", "polyline", "line"}
OUTLINE_NAMES = ("card", "outline")
"""Names of the shape that is the card or map outline, not a space."""
SKIPPED_TREES = {"defs", "clipPath", "mask", "marker", "pattern", "symbol", "metadata", "title", "desc"}
INKSCAPE_LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"
SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
TRANSFORM_STEP = re.compile(r"[a-zA-Z]+\s*\(")
LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Z%]*)\s*$")
UNITS = ("", "px", "mm", "cm", "in", "pt", "pc", "%")
UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6}
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
CURVE_STEP_MM = 0.25
"""Flattened curves get a point at least every quarter millimetre …"""
CURVE_MIN_POINTS = 32
"""… and at least this many per curve segment (a quarter circle's area is then right to 0.02 %)."""
CURVE_POINTS_PER_RADIAN = 24
"""… and at least this many per radian the curve turns (a full circle gets 151 points: its
area comes out right to 0.03 %)."""
CURVE_MAX_POINTS = 4096
SIMPLIFY_MM = 0.01
"""How far a shape over the point cap may move when it is simplified."""
DECORATION_SLACK_MM = 0.05
"""How far a guide may poke out of the space it lies in (a circle flattened, a snapped edge)."""


@dataclass(frozen=True)
class DrawnShape:
    """A closed shape from the drawing: its rings in mm (exterior first), the name the
    designer gave it (``inkscape:label``, a ``<title>``, an id that is not automatic, or a
    text drawn inside it; None when it has none), its element id, and the name of its
    nearest named enclosing group."""

    name: str | None
    rings: tuple[tuple[tuple[float, float], ...], ...]
    group: str | None
    order: int
    problem: str | None = None
    """Why the shape cannot be used as drawn (several separate pieces, …), or None."""
    element_id: str | None = None
    """The element's id, automatic or not (``path12``): a handle to find it by when it has no name."""
    unfilled: bool = False
    """Drawn without fill: with no name and inside another shape, it is a guide, not a space."""


@dataclass
class Drawing:
    """Every closed shape in document order, and how many things were ignored, by kind."""

    shapes: list[DrawnShape] = field(default_factory=list)
    ignored: dict[str, int] = field(default_factory=dict)
    size_mm: tuple[float, float] | None = None
    unit: str = "mm"
    """The drawing's own unit (from the document width) that messages give places in."""
    mm_per_unit: float = 1.0
    height_mm: float = 0.0
    notes: list[str] = field(default_factory=list)
    """Notes about how the drawing was read (the unit assumed, clones read as spaces)."""
    simplified: int = 0
    """How many shapes had more than MAX_SPACE_POINTS points and were simplified."""

    def ignore(self, kind: str, count: int = 1) -> None:
        if count:
            self.ignored[kind] = self.ignored.get(kind, 0) + count


@dataclass(frozen=True)
class _Entry:
    name: str | None
    group: str | None
    element_id: str | None = None
    text: str = ""
    unfilled: bool = False
    """The shape is drawn without fill (``fill:none``, its own or inherited): a guide line."""


def read_svg(data: bytes, *, source: str = "drawing") -> Drawing:
    """The closed shapes of the SVG document ``data`` (see the module docstring).

    Raises :class:`UnreadableInputError` with one line when the document is not SVG, uses
    a unit coinprint does not know, or is over a cap of :mod:`coinprint.caps`.
    """
    _preflight(data, source)
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise UnreadableInputError(f"{source} is not an SVG drawing: the XML is broken ({exc})") from None
    if _tag(root) != "svg":
        raise UnreadableInputError(
            f"{source} is XML but not SVG: its root element is <{_short(_tag(root))}>, not <svg>"
        )
    _check_size_attributes(root, source)
    _check_transforms(root, source)
    exported = is_libreoffice_export(root, data)
    if exported:
        as_drawn(root)
    try:
        clones = expand_clones(root, source)
        drawing = _read(root, source)
    except RecursionError:
        raise UnreadableInputError(f"{source}: the SVG is nested too deeply to read") from None
    except (ValueError, TypeError, ArithmeticError, IndexError, AttributeError, KeyError) as exc:
        # svgelements meets malformed numbers, transforms and paths with many kinds of error.
        raise UnreadableInputError(
            f"{source}: the SVG cannot be read ({type(exc).__name__}: {_short(' '.join(str(exc).split()))})"
        ) from None
    if clones:
        drawing.notes.append(f"read {clones} clone{'s' if clones != 1 else ''} (<use>) as shapes in their own place")
    if drawing.simplified:
        drawing.notes.append(
            f"simplified {drawing.simplified} shape{'s' if drawing.simplified != 1 else ''} of more than "
            f"{MAX_SPACE_POINTS:,} points within {SIMPLIFY_MM:g} mm"
        )
    if exported:
        drawing.notes.append("read as a LibreOffice Draw export: one space per shape, named by its title or its text")
    return drawing


def _short(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters, so a hostile name cannot make a message huge."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _preflight(data: bytes, source: str) -> None:
    """Refuse, before any tree is built, a document that declares entities (in any
    encoding the XML parser reads) or holds more than MAX_DRAWING_ELEMENTS elements."""
    from xml.parsers import expat

    if b"<!ENTITY" in data:
        raise UnreadableInputError(ENTITY_REFUSAL.format(source=source))
    count = 0

    def start(name: str, attributes: dict[str, str]) -> None:
        nonlocal count
        count += 1
        if count > MAX_DRAWING_ELEMENTS:
            raise _Refused(
                f"{source}: more than {MAX_DRAWING_ELEMENTS:,} elements (cap MAX_DRAWING_ELEMENTS); a board has far fewer"
            )

    def entity(*args: object) -> None:
        # Entities can expand a small file into gigabytes, and drawing programs never write them.
        raise _Refused(ENTITY_REFUSAL.format(source=source))

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, True)
    except _Refused as refused:
        raise UnreadableInputError(str(refused)) from None
    except expat.ExpatError as exc:
        raise UnreadableInputError(f"{source} is not an SVG drawing: the XML is broken ({exc})") from None
    except (ValueError, LookupError) as exc:  # an encoding the XML parser cannot use
        raise UnreadableInputError(
            f"{source}: the XML is in an encoding coinprint does not read ({_short(str(exc))}); save it as UTF-8"
        ) from None


class _Refused(Exception):
    """Raised inside the XML parser's callbacks to stop it at once."""


ENTITY_REFUSAL = "{source}: the SVG declares XML entities (<!ENTITY>), which coinprint does not read"


# -- clones (<use>) ---------------------------------------------------------------------------------------------
def expand_clones(root: ElementTree.Element, source: str) -> int:
    """Replace every ``<use>`` by a group holding a copy of what it clones, placed where the
    clone is, so each clone is read as a shape of its own and never stands in for its
    original. The document's size once expanded is counted first (nested clones fan out:
    a clone of two clones of two clones …) and refused over MAX_DRAWING_ELEMENTS. Returns
    how many clones were expanded."""
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    sizes: dict[int, int] = {}

    def size(element: ElementTree.Element, path: tuple[int, ...]) -> int:
        key = id(element)
        if key in sizes:
            return sizes[key]
        if key in path:
            raise UnreadableInputError(f"{source}: a clone (<use>) refers to itself, directly or through others")
        total = 1 + sum(size(child, (*path, key)) for child in element)
        target = by_id.get(_href(element)) if _tag(element) == "use" else None
        if target is not None:
            total += size(target, (*path, key))
        if total > MAX_DRAWING_ELEMENTS:
            raise UnreadableInputError(
                f"{source}: its clones (<use>) expand to more than {MAX_DRAWING_ELEMENTS:,} elements "
                "(cap MAX_DRAWING_ELEMENTS)"
            )
        sizes[key] = total
        return total

    size(root, ())
    expanded = 0

    def expand(parent: ElementTree.Element) -> None:
        nonlocal expanded
        for index, child in enumerate(list(parent)):
            if _tag(child) != "use":
                expand(child)
                continue
            target = by_id.get(_href(child))
            parent.remove(child)
            if target is None:
                continue  # a clone of nothing in this file draws nothing
            group = ElementTree.Element(SVG + "g")
            for attribute in ("style", "class", "display", "visibility", INKSCAPE_LABEL, "id"):
                if child.get(attribute) is not None:
                    group.set(attribute, child.get(attribute, ""))
            x, y = child.get("x", "0"), child.get("y", "0")
            group.set("transform", f"{child.get('transform', '')} translate({x or 0},{y or 0})".strip())
            copy = _anonymous_copy(target)
            if _tag(copy) in SHAPE_TAGS and _own_name(child):
                # A named clone of one shape names that shape; the group stays unnamed.
                copy.set(INKSCAPE_LABEL, _own_name(child) or "")
                group.attrib.pop(INKSCAPE_LABEL, None)
            group.append(copy)
            parent.insert(index, group)
            expanded += 1
            expand(group)

    expand(root)
    return expanded


def _href(element: ElementTree.Element) -> str:
    return (element.get("href") or element.get(XLINK_HREF) or "").strip().removeprefix("#")


def _anonymous_copy(target: ElementTree.Element) -> ElementTree.Element:
    """A deep copy of ``target`` without the names of the original (ids, labels, titles),
    so the copies are not read as the original drawn again; a symbol becomes a group."""
    copy = copy_element(target)
    for element in copy.iter():
        element.attrib.pop("id", None)
        element.attrib.pop(INKSCAPE_LABEL, None)
        for title in [c for c in element if _tag(c) == "title"]:
            element.remove(title)
    if _tag(copy) in ("symbol", "svg"):
        copy.tag = SVG + "g"
        for attribute in ("viewBox", "x", "y", "width", "height", "preserveAspectRatio"):
            copy.attrib.pop(attribute, None)
    return copy


# -- walking the document ----------------------------------------------------------------------------------------
def _read(root: ElementTree.Element, source: str) -> Drawing:
    drawing = Drawing()
    entries: dict[str, _Entry] = {}
    texts: dict[str, _Entry] = {}
    numbers = 0
    hidden = _css_hidden(root)
    containers = _containers(root)
    walk = _walk(root, None, hidden=False, skipped=False, css=hidden, containers=containers, filled=True)
    for element, entry, state in walk:
        if state == "text":
            key = f"t{len(texts)}"
            element.set(KEY, key)
            texts[key] = entry
            continue
        if state == "image":
            drawing.ignore("images")
            continue
        if state == "hidden":
            drawing.ignore("hidden shapes")
            continue
        if state == "defs":
            drawing.ignore("shapes inside <defs>")
            continue
        if state == "lettering":
            drawing.ignore("shapes of text converted to paths")
            continue
        own = len(NUMBER.findall(element.get("d", "") + " " + element.get("points", "")))
        if own > MAX_SPACE_NUMBERS:
            # Counted before svgelements parses the path: a huge path would take it minutes.
            raise UnreadableInputError(
                f"{source}: {_short(entry.name or entry.element_id or 'a shape', 40)} has {own:,} numbers in its "
                f"path data, over the {MAX_SPACE_NUMBERS:,}-number cap for one shape (MAX_SPACE_NUMBERS); "
                "simplify it (Inkscape: Path ▸ Simplify)"
            )
        numbers += own
        if numbers > MAX_DRAWING_NUMBERS:
            raise UnreadableInputError(
                f"{source}: the paths hold more than {MAX_DRAWING_NUMBERS:,} numbers "
                f"(cap MAX_DRAWING_NUMBERS, about {MAX_DRAWING_NUMBERS // 2:,} points); simplify the drawing"
            )
        if len(entries) >= MAX_DRAWING_SHAPES:
            raise UnreadableInputError(
                f"{source}: more than {MAX_DRAWING_SHAPES:,} shapes (cap MAX_DRAWING_SHAPES); a board has far fewer"
            )
        key = f"k{len(entries)}"
        element.set(KEY, key)
        entries[key] = entry
    return _shapes(root, entries, texts, drawing, source)


def _check_transforms(root: ElementTree.Element, source: str) -> None:
    for element in root.iter():
        transform = element.get("transform")
        if transform and len(TRANSFORM_STEP.findall(transform)) > MAX_TRANSFORM_STEPS:
            raise UnreadableInputError(
                f"{source}: an element's transform lists more than {MAX_TRANSFORM_STEPS} steps "
                "(cap MAX_TRANSFORM_STEPS); drawing programs write one"
            )


def _walk(
    element: ElementTree.Element,
    group: str | None,
    *,
    hidden: bool,
    skipped: bool,
    css: _Hidden,
    containers: set[int],
    filled: bool,
) -> Iterator[tuple[ElementTree.Element, _Entry, str]]:
    """Each shape-like element with its entry and what it is: ``shape``, ``text``,
    ``image``, ``hidden``, ``defs`` or ``lettering`` (text converted to paths). ``containers``
    are the named groups that are no region (see :func:`_containers`); ``filled`` says
    whether ``element`` is filled, for its children to inherit."""
    for child in element:
        tag = _tag(child)
        is_hidden = hidden or css.hides(child, tag)
        in_defs = skipped or tag in SKIPPED_TREES
        name = _own_name(child)
        is_filled = _fill(child, filled, css)
        if tag in SHAPE_TAGS:
            state = "defs" if in_defs else "hidden" if is_hidden else "shape"
            yield child, _Entry(name, group, child.get("id"), unfilled=not is_filled), state
        elif tag in ("text", "flowRoot"):
            if not in_defs and not is_hidden:
                words = " ".join("".join(child.itertext()).split())
                yield child, _Entry(name, group, child.get("id"), words), "text"
        elif tag == "image":
            if not in_defs:
                yield child, _Entry(name, group), "image"
        elif tag == "g" and child.get("aria-label") is not None and not in_defs:
            # Inkscape keeps the words of text converted to paths as the group's aria-label.
            for shape in child.iter():
                if _tag(shape) in SHAPE_TAGS:
                    yield shape, _Entry(None, group), "lettering"
        elif tag in ("g", "a", "switch", "svg") or tag in SKIPPED_TREES:
            # Only a group the designer named is a region; an automatic id (g501, layer3) never
            # is, and neither is a named layer that holds named groups of shapes (the regions):
            # a shape drawn in it beside them is in no region.
            inner = (None if id(child) in containers else name) if tag == "g" and name else group
            yield from _walk(
                child, inner, hidden=is_hidden, skipped=in_defs, css=css, containers=containers, filled=is_filled
            )


def _containers(root: ElementTree.Element) -> set[int]:
    """The named groups (by ``id()``) that hold a named group holding shapes: layers of
    regions, not regions themselves."""
    found: set[int] = set()

    def visit(element: ElementTree.Element) -> tuple[bool, bool]:
        """Whether ``element`` holds shapes, and whether it holds a named group holding shapes."""
        shapes = named_inside = False
        for child in element:
            tag = _tag(child)
            if tag in SKIPPED_TREES or child.get("aria-label") is not None:  # lettering is no region
                continue
            if tag in SHAPE_TAGS:
                shapes = True
                continue
            inner_shapes, inner_named = visit(child)
            shapes |= inner_shapes
            named_inside |= inner_named or (tag == "g" and inner_shapes and _own_name(child) is not None)
        if named_inside and _tag(element) == "g" and _own_name(element) is not None:
            found.add(id(element))
        return shapes, named_inside

    visit(root)
    return found


def _fill(element: ElementTree.Element, inherited: bool, css: _Hidden) -> bool:
    """Whether ``element`` is filled: its own ``fill`` (attribute, style sheet class as
    Illustrator writes them, or style), else its parent's."""
    declared = element.get("fill")
    classes = (element.get("class") or "").split()
    if any(name in css.unfilled for name in classes):
        declared = "none"
    for declaration in (element.get("style") or "").split(";"):
        prop, _, value = declaration.partition(":")
        if prop.strip().lower() == "fill" and value.strip():
            declared = value
    if declared is None or declared.strip().lower() in ("inherit", ""):
        return inherited
    return declared.replace("!important", "").strip().lower() not in ("none", "transparent")


AUTOMATIC_ID = re.compile(
    r"^(?:path|rect|circle|ellipse|polygon|polyline|line|g|layer|use|text|tspan|flowRoot|image|svg|defs|symbol"
    r"|title|desc|a|shape|group|clone|XMLID_|id)\d+_?(?:-\d+)*$",
    re.IGNORECASE,
)
"""Ids drawing programs make up (``path12``, ``g501``, ``layer3``, ``rect4-7``): not names."""


def _own_name(element: ElementTree.Element) -> str | None:
    """The name the designer gave an element: its ``inkscape:label``, else its ``<title>``,
    else its id unless the id was made up by the program."""
    label = (element.get(INKSCAPE_LABEL) or "").strip()
    if label:
        return label
    for child in element:
        if _tag(child) == "title":
            title = " ".join("".join(child.itertext()).split())
            if title:
                return title
    own = (element.get("id") or "").strip()
    return own if own and not AUTOMATIC_ID.match(own) else None


def _tag(element: ElementTree.Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


@dataclass
class _Hidden:
    """What a document's style sheets hide (``display:none`` or ``visibility:hidden``)."""

    classes: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    tags: set[str] = field(default_factory=set)
    unfilled: set[str] = field(default_factory=set)
    """Classes whose rules say ``fill:none`` (not hidden: drawn without fill)."""

    def hides(self, element: ElementTree.Element, tag: str) -> bool:
        if _hidden_declarations(
            f"display:{element.get('display', '')};visibility:{element.get('visibility', '')};{element.get('style', '')}"
        ):
            return True
        classes = set((element.get("class") or "").split())
        return bool(classes & self.classes) or element.get("id") in self.ids or tag in self.tags


def _hidden_declarations(declarations: str) -> bool:
    """Whether CSS declarations hide what they apply to (the last value of each property wins)."""
    values: dict[str, str] = {}
    for declaration in declarations.split(";"):
        prop, _, value = declaration.partition(":")
        if value.strip():
            values[prop.strip().lower()] = value.replace("!important", "").strip().lower()
    return values.get("display") == "none" or values.get("visibility") in ("hidden", "collapse")


def _css_hidden(root: ElementTree.Element) -> _Hidden:
    """Simple selectors (``.class``, ``#id``, ``tag``, ``tag.class``) of the document's
    ``<style>`` sheets whose rules hide things."""
    hidden = _Hidden()
    for style in root.iter(SVG + "style"):
        sheet = re.sub(r"/\*.*?\*/", "", "".join(style.itertext()), flags=re.S)
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet):
            if re.search(r"(?:^|;)\s*fill\s*:\s*none", body.lower()):
                hidden.unfilled.update(re.findall(r"\.([\w-]+)\s*(?:,|$)", selectors))
            if not _hidden_declarations(body):
                continue
            for selector in selectors.split(","):
                selector = selector.strip()
                if re.fullmatch(r"[\w-]*\.[\w-]+", selector):
                    hidden.classes.add(selector.split(".", 1)[1])
                elif re.fullmatch(r"#[\w-]+", selector):
                    hidden.ids.add(selector[1:])
                elif re.fullmatch(r"[\w-]+", selector):
                    hidden.tags.add(selector)
    return hidden


def _check_size_attributes(root: ElementTree.Element, source: str) -> None:
    for attribute in ("width", "height"):
        value = root.get(attribute)
        if value is None:
            continue
        match = LENGTH.match(value)
        if match is None or match.group(2) not in UNITS:
            raise UnreadableInputError(
                f"{source}: the document {attribute} {_short(repr(value), 40)} has a unit coinprint does not know; "
                "use mm, cm, in, pt, pc or px (96 px to the inch)"
            )
        if not math.isfinite(float(match.group(1))) or float(match.group(1)) <= 0:
            raise UnreadableInputError(
                f"{source}: the document {attribute} {_short(repr(value), 40)} must be a positive length"
            )
    view_box = root.get("viewBox")
    if view_box is not None:
        parts = NUMBER.findall(view_box)
        if len(parts) != 4 or float(parts[2]) <= 0 or float(parts[3]) <= 0:
            raise UnreadableInputError(
                f"{source}: the viewBox {_short(repr(view_box), 40)} must be four numbers: x y width height"
            )


def _shapes(
    root: ElementTree.Element, entries: dict[str, _Entry], texts: dict[str, _Entry], drawing: Drawing, source: str
) -> Drawing:
    import svgelements

    text = ElementTree.tostring(root)
    try:
        svg = svgelements.SVG.parse(io.BytesIO(text), reify=True, ppi=PX_PER_INCH)
    except Exception as exc:  # svgelements raises many kinds on malformed documents
        raise UnreadableInputError(
            f"{source}: the SVG cannot be read ({type(exc).__name__}: {_short(' '.join(str(exc).split()))})"
        ) from None
    scale = _mm_per_px(root, float(svg.width))
    height_mm = float(svg.height) * scale if root.get("height") or root.get("viewBox") else 0.0
    if height_mm:
        drawing.size_mm = (float(svg.width) * scale, height_mm)
    drawing.unit, drawing.mm_per_unit = _document_unit(root)
    drawing.height_mm = height_mm
    if root.get("viewBox") and not (root.get("width") and root.get("height")):
        drawing.notes.append(
            "the document has a viewBox but no width and height: its units were read as px (96 to the inch); "
            "give the document a width and height in mm to be sure of the size"
        )
    budget = [MAX_FLATTENED_POINTS]
    order = 0
    seen: set[str] = set()
    anchors: dict[str, tuple[float, float]] = {}
    for element in svg.elements():
        key = str(element.values.get(KEY, "")) if isinstance(element, svgelements.SVGElement) else ""
        if isinstance(element, svgelements.Text):
            if key in texts and key not in anchors and element.x is not None and element.y is not None:
                point = element.transform.point_in_matrix_space((float(element.x), float(element.y)))
                anchors[key] = _mm(point, height_mm, scale)
            continue
        if not isinstance(element, svgelements.Shape):
            continue
        entry = entries.get(key)
        if entry is None or key in seen:
            continue
        seen.add(key)
        rings, open_parts = _rings(svgelements.Path(element), height_mm, scale, budget, source)
        if not rings:
            drawing.ignore("open paths and lines")
            continue
        order += 1
        rings_out, problem = _as_polygon(rings)
        rings_out, simplified = within_point_cap(rings_out, entry.name or entry.element_id, source)
        drawing.simplified += simplified
        drawing.shapes.append(
            DrawnShape(entry.name, rings_out, entry.group, order, problem, entry.element_id, entry.unfilled)
        )
        drawing.ignore("open parts of paths", open_parts)
    _drop_decorations(drawing)
    used = _name_by_texts(drawing, [(texts[k].text, p) for k, p in anchors.items() if texts[k].text])
    drawing.ignore("text", len(texts) - used)
    return drawing


def within_point_cap(
    rings: tuple[tuple[tuple[float, float], ...], ...], name: str | None, source: str
) -> tuple[tuple[tuple[tuple[float, float], ...], ...], bool]:
    """``rings`` with at most MAX_SPACE_POINTS points, and whether they were simplified:
    simplified within SIMPLIFY_MM when they have more (a traced outline, curves flattened
    finely); refused with one line when even that leaves too many."""
    count = sum(len(ring) for ring in rings)
    if count <= MAX_SPACE_POINTS:
        return rings, False
    import shapely

    simpler = [shapely.simplify(shapely.LinearRing(ring), SIMPLIFY_MM) for ring in rings]
    kept = tuple(tuple((float(x), float(y)) for x, y in ring.coords[:-1]) for ring in simpler)
    left = sum(len(ring) for ring in kept)
    if left > MAX_SPACE_POINTS:
        raise UnreadableInputError(
            f"{source}: {_short(name or 'a shape', 40)} has {count:,} points ({left:,} simplified within "
            f"{SIMPLIFY_MM:g} mm), over the {MAX_SPACE_POINTS:,}-point cap for one space (MAX_SPACE_POINTS); "
            "simplify it (Inkscape: Path ▸ Simplify)"
        )
    return kept, True


def _drop_decorations(drawing: Drawing) -> None:
    """Leave out unnamed shapes drawn inside another shape that are guides or lettering, not
    spaces: any inside a named space (lettering, an emblem), and an unfilled one alone inside
    an unnamed space (a coin-guide circle, a clone of a guide symbol). The card or outline
    holds every space and is no such place, and neither is an unnamed shape holding several
    (a background behind unfilled cells)."""
    import numpy
    import shapely

    candidates = [k for k, shape in enumerate(drawing.shapes) if shape.name is None]
    if not candidates:
        return
    if not any(drawing.shapes[k].unfilled for k in candidates) and len(candidates) == len(drawing.shapes):
        return  # nothing unfilled and no named space: no shape can be a guide
    rings = [numpy.asarray(shape.rings[0], dtype=float) for shape in drawing.shapes]
    owner = numpy.repeat(numpy.arange(len(rings)), [len(ring) for ring in rings])
    outer = shapely.polygons(shapely.linearrings(numpy.concatenate(rings), indices=owner)).tolist()
    tree = shapely.STRtree(outer)
    inside: dict[int, list[int]] = {}
    bounds = shapely.bounds(outer)
    slack = DECORATION_SLACK_MM
    for k in candidates:
        (x0, y0, x1, y1) = bounds[k]
        around = [
            j
            for j in tree.query(outer[k]).tolist()
            # Only shapes whose box holds this one's box can hold it: few are buffered and tested.
            if j != k
            and bounds[j][0] - slack <= x0
            and bounds[j][1] - slack <= y0
            and bounds[j][2] + slack >= x1
            and bounds[j][3] + slack >= y1
            and (drawing.shapes[j].name or "").lower() not in OUTLINE_NAMES
            and outer[j].area > outer[k].area
            and outer[j].buffer(DECORATION_SLACK_MM).covers(outer[k])
        ]
        if around:
            inside.setdefault(min(around, key=lambda j: outer[j].area), []).append(k)
    dropped = set()
    for j, held in inside.items():
        if drawing.shapes[j].name is not None:
            dropped.update(held)
        elif len(held) == 1 and drawing.shapes[held[0]].unfilled:
            dropped.update(held)
    if dropped:
        drawing.shapes = [shape for k, shape in enumerate(drawing.shapes) if k not in dropped]
        drawing.ignore("unnamed shapes inside spaces (guides, decorations)", len(dropped))


def _name_by_texts(drawing: Drawing, labels: list[tuple[str, tuple[float, float]]]) -> int:
    """Name each shape that has no name by the one text drawn inside it (a label typed onto
    the space, grouped with it or not); returns how many texts named a shape."""
    import shapely

    unnamed = [k for k, shape in enumerate(drawing.shapes) if shape.name is None]
    if not unnamed or not labels:
        return 0
    points = shapely.points([p for _, p in labels])
    polygons = [shapely.Polygon(drawing.shapes[k].rings[0], drawing.shapes[k].rings[1:]) for k in unnamed]
    tree = shapely.STRtree(points)
    used: set[int] = set()
    for k, polygon in zip(unnamed, polygons):
        hits = tree.query(polygon, predicate="contains").tolist()
        inside = {labels[i][0] for i in hits}
        if len(inside) == 1:
            shape = drawing.shapes[k]
            drawing.shapes[k] = DrawnShape(
                inside.pop(), shape.rings, shape.group, shape.order, shape.problem, shape.element_id, shape.unfilled
            )
            used.update(hits)  # a text is counted once, however many shapes it lies in
    return len(used)


def _document_unit(root: ElementTree.Element) -> tuple[str, float]:
    """The unit the drawing's width is given in (what its editor shows), and its size in mm."""
    match = LENGTH.match(root.get("width") or "")
    unit = match.group(2) if match else ""
    return (unit, UNIT_MM[unit]) if unit in UNIT_MM else ("px", MM_PER_PX)


def _rings(
    path: svgelements.Path, height_mm: float, scale: float, budget: list[int], source: str
) -> tuple[list[list[tuple[float, float]]], int]:
    """The closed subpaths of ``path`` as rings in mm (y up), and how many were open."""
    import svgelements

    path = abs(path)  # applies the element's transform to its segments
    rings: list[list[tuple[float, float]]] = []
    open_count = 0
    for subpath in path.as_subpaths():
        points: list[tuple[float, float]] = []
        closed = False
        for segment in subpath:
            if isinstance(segment, svgelements.Move):
                if segment.end is not None:
                    points = [_mm(segment.end, height_mm, scale)]
                continue
            if isinstance(segment, svgelements.Close):
                closed = True
                continue
            if segment.end is None:
                continue
            if isinstance(segment, svgelements.Line):
                points.append(_mm(segment.end, height_mm, scale))
            else:
                points.extend(_flatten(segment, height_mm, scale))
            if len(points) > budget[0]:
                raise UnreadableInputError(
                    f"{source}: flattening the curves gives more than {MAX_FLATTENED_POINTS:,} points "
                    "(cap MAX_FLATTENED_POINTS); simplify the drawing"
                )
        budget[0] -= len(points)
        # A shape squashed flat (a zero scale, repeated points) has no area: not a space.
        points = [p for k, p in enumerate(points) if k == 0 or math.dist(p, points[k - 1]) >= 1e-6]
        if len(points) >= 2 and math.dist(points[0], points[-1]) < 1e-6:
            closed = True
            points.pop()
        if closed and len(points) >= 3:
            rings.append(points)
        elif len(points) >= 2:
            open_count += 1
    return rings, open_count


class _XY(Protocol):
    """A point as svgelements gives one (a ``Point``, or a row of its ``npoint`` array)."""

    def __getitem__(self, index: int, /) -> SupportsFloat: ...


def _mm(point: _XY, height_mm: float, scale: float) -> tuple[float, float]:
    x, y = float(point[0]) * scale, height_mm - float(point[1]) * scale
    if not (abs(x) < MAX_COORDINATE_MM and abs(y) < MAX_COORDINATE_MM):
        raise ValueError(
            f"a point lies {max(abs(x), abs(y)):.3g} mm away; a board is at most {MAX_COORDINATE_MM:g} mm across"
        )
    return (x, y)


def _mm_per_px(root: ElementTree.Element, width_px: float) -> float:
    """Millimetres per svgelements pixel: exact from the document width when it has a
    physical unit (svgelements rounds its unit factors), else 25.4 / 96."""
    match = LENGTH.match(root.get("width") or "")
    if match is None or match.group(2) not in UNIT_MM or width_px <= 0:
        return MM_PER_PX
    return float(match.group(1)) * UNIT_MM[match.group(2)] / width_px


def _flatten(segment: svgelements.PathSegment, height_mm: float, scale: float) -> list[tuple[float, float]]:
    """Points along a curve segment (its start left out), evenly spaced in its parameter.

    The count depends only on the curve's length, so a border drawn in the other direction
    by the neighbouring shape is flattened to the very same points.
    """
    import numpy

    coarse = numpy.asarray(segment.npoint(numpy.linspace(0.0, 1.0, 33)), dtype=float)
    steps = numpy.diff(coarse, axis=0)
    length_mm = float(numpy.hypot(*steps.T).sum()) * scale
    headings = numpy.unwrap(numpy.arctan2(steps[:, 1], steps[:, 0]))
    turning = float(numpy.abs(numpy.diff(headings)).sum())
    count = max(CURVE_MIN_POINTS, math.ceil(length_mm / CURVE_STEP_MM), math.ceil(turning * CURVE_POINTS_PER_RADIAN))
    count = min(CURVE_MAX_POINTS, count)
    t = numpy.linspace(0.0, 1.0, count + 1)[1:]
    return [_mm(p, height_mm, scale) for p in segment.npoint(t)]


def _as_polygon(
    rings: list[list[tuple[float, float]]],
) -> tuple[tuple[tuple[tuple[float, float], ...], ...], str | None]:
    """One polygon from a shape's closed subpaths: the largest is the outline, the others
    must lie inside it (holes); a shape of separate pieces is reported."""
    import shapely

    ordered = sorted(rings, key=lambda ring: -abs(_signed_area(ring)))
    outline = shapely.Polygon(ordered[0])
    problem = None
    holes = []
    for ring in ordered[1:]:
        if outline.contains(shapely.Polygon(ring).representative_point()):
            holes.append(ring)
        else:
            problem = f"is drawn as {len(rings)} separate pieces; a space must be one piece"
    return tuple(tuple(r) for r in [ordered[0], *holes]), problem


def _signed_area(ring: list[tuple[float, float]]) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))
