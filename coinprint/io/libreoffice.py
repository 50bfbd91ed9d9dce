"""Reading the SVG export of LibreOffice Draw as it was drawn.

LibreOffice writes each shape as a group of class ``com.sun.star.drawing.…Shape`` holding an
invisible bounding box (``<rect class="BoundingBox">``), the shape's fill, a separate copy of
the same outline for its stroke, and the shape's text; the shape's title (Format ▸ Name ▸
Description: *Title*) is a ``<title>`` of that group and its description a ``<desc>``; groups
are written without their names. Around the page it writes embedded
fonts, bullet templates, clip paths and master-slide groups, and every id it writes is made
up (``id3``, ``container-id1``).

:func:`as_drawn` turns such a document, in place, into what a designer drew: one path per
shape, named by its title or else by its text, in a group named by its description (its
region), and nothing else, so the ordinary reading
(:mod:`coinprint.io.svg`) sees one space per shape.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

INKSCAPE_LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"
OOO_NAMESPACE = "http://xml.openoffice.org/svg/export"
SHAPE_CLASS = "com.sun.star.drawing."
GROUP_CLASS = "com.sun.star.drawing.GroupShape"
TEXT_CLASS = "TextShape"
"""A text box: its frame is no space; its text is a label typed onto a space."""
DRAWN = ("path", "rect", "polygon", "polyline", "circle", "ellipse")
BOILERPLATE_CLASSES = {"ClipPathGroup", "TextShapeIndex", "EmbeddedBulletChars", "Master_Slide", "Background"}
"""Parts of the export that are not the drawing: the page's clip, the index of texts,
bullet templates, the master slide and its background."""


def is_libreoffice_export(root: ElementTree.Element, data: bytes) -> bool:
    """Whether the document is LibreOffice's SVG export (it declares LibreOffice's
    ``ooo`` namespace and writes its shapes as ``com.sun.star.drawing`` groups)."""
    return OOO_NAMESPACE.encode() in data[:4096] and any(
        (element.get("class") or "").startswith(SHAPE_CLASS) for element in root.iter()
    )


def as_drawn(root: ElementTree.Element) -> int:
    """Rewrite LibreOffice's export in place as drawn (see the module docstring); returns
    how many shapes it holds."""
    _drop_boilerplate(root)
    shapes = 0
    for group in [g for g in root.iter() if _is_shape(g)]:
        shapes += 1
        _one_outline(group)
    for box in [g for g in root.iter() if g.get("class") == TEXT_CLASS]:
        _text_only(box)
    for element in root.iter():
        # Every id LibreOffice writes is made up: none names a space or a region.
        element.attrib.pop("id", None)
    return shapes


def _is_shape(element: ElementTree.Element) -> bool:
    kind = element.get("class") or ""
    return kind.startswith(SHAPE_CLASS) and kind != GROUP_CLASS


def _text_only(box: ElementTree.Element) -> None:
    """Keep only the text of a text box: its frame, filled or not, is not a shape drawn."""
    parents = {child: parent for parent in box.iter() for child in parent}
    for element in [e for e in box.iter() if _tag(e) in DRAWN]:
        parents[element].remove(element)


def _drop_boilerplate(root: ElementTree.Element) -> None:
    for parent in list(root.iter()):
        for child in list(parent):
            tag = _tag(child)
            if (child.get("class") or "") in BOILERPLATE_CLASSES or tag == "font" or (tag == "defs" and not len(child)):
                parent.remove(child)


def _one_outline(group: ElementTree.Element) -> None:
    """Keep one outline of the shape ``group``: its fill, else its stroke; name it by the
    group's title, else by the shape's own text, and drop that text (it is part of the shape)."""
    name, region = _said(group, "title"), _said(group, "desc")
    for child in [c for c in group if _tag(c) in ("title", "desc")]:
        group.remove(child)
    if region:
        # LibreOffice exports no group's name: a shape's description names its region.
        group.set(INKSCAPE_LABEL, region)
    parents = {child: parent for parent in group.iter() for child in parent}
    drawn = [e for e in group.iter() if _tag(e) in DRAWN]
    outlines = [e for e in drawn if (e.get("class") or "") != "BoundingBox"]
    for element in drawn:
        if element not in outlines:
            parents[element].remove(element)
    filled = [e for e in outlines if (e.get("fill") or "").strip() != "none"]
    keep = filled[:1] or outlines[:1]
    if filled:
        # A stroke drawn as a second copy of the filled outline is the same shape.
        outline = filled[0].get("d")
        for element in outlines:
            if element is not filled[0] and element.get("d") == outline and (element.get("fill") or "") == "none":
                parents[element].remove(element)
    texts = [e for e in group.iter() if _tag(e) == "text"]
    words = " ".join(" ".join("".join(t.itertext()).split()) for t in texts).strip()
    if keep and (name or words):
        keep[0].set(INKSCAPE_LABEL, name or words)
    if keep:
        for text in texts:  # the shape's own text: its label, not a text of the drawing
            parents[text].remove(text)
    # A text box has no outline: its text stays a text of the drawing, naming the space it is on.


def _said(group: ElementTree.Element, tag: str) -> str:
    """The words of the shape's ``<title>`` or ``<desc>``, on one line ("" when it has none)."""
    found = next((c for c in group if _tag(c) == tag), None)
    return " ".join("".join(found.itertext()).split()) if found is not None else ""


def _tag(element: ElementTree.Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]
