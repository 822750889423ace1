"""Reading a diagram's SVG back in the diagram tests: parsed with ElementTree, its texts and
its drawn parts counted."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """The SVG's root element; fails the test unless it is a well-formed <svg> with a size."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert width > 0 and height > 0
    assert root.get("viewBox") == f"0 0 {width} {height}"
    return root


def text(root: ET.Element) -> str:
    """Every text and tooltip of the drawing, in document order."""
    return " ".join(" ".join(el.itertext()) for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title"))


def shown_text(root: ET.Element) -> str:
    """The texts drawn (tooltips left out), each <text> element on its own line."""
    return "\n".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def parts(root: ET.Element) -> Counter[str]:
    """How many of each node the figure draws: source and other circles, squares (scores),
    property boxes (rounded rectangles) and arrowheads."""
    out: Counter[str] = Counter()
    for el in root.iter():
        tag = el.tag.removeprefix(SVG)
        shaded = el.get("fill-opacity") is not None
        if tag == "circle":
            out["source circles" if shaded else "circles"] += 1
        elif tag == "rect":
            out["properties" if el.get("rx") else "source squares" if shaded else "squares"] += 1
        elif tag == "polygon":
            out["arrows"] += 1
    return out


def tags(root: ET.Element) -> set[str]:
    return {el.tag.removeprefix(SVG) for el in root.iter()}


def attributes(root: ET.Element) -> set[str]:
    names: set[str] = set()
    for el in root.iter():
        names.update(el.attrib)
    return names

