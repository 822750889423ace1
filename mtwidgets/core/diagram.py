"""A relation drawn in the systematicity paper's graphical notation (section 2, Figures 1-5).

The notation: textual variables are circles, numerical ones (embeddings, softmax outputs)
squares; source inputs are shaded grey, every other node is white; arrows are the model
*f* and the transformations *T*; the output property *P* is linked to the outputs it speaks
of with dashed lines. :func:`diagram` draws one relation that way as a standalone SVG: no
script, no external font or style sheet, every text XML-escaped, strokes and text in
``currentColor`` so that it reads on light and dark backgrounds alike.

Five shapes cover the relations of the papers:

``single`` (Figure 1)
    one source ``x`` -T-> one follow-up ``x'``; ``P`` over ``y = f(x)`` and ``y' = f(x')``.
``combination`` (MR-C1/C2)
    two sources combined by ``T`` into one follow-up; ``P`` over the three outputs.
``pairwise`` (Figure 2, systematicity)
    two sources, each with its follow-up; ``P_src`` over the source outputs, ``P_flw``
    over the follow-up outputs, and ``P`` relating the two.
``no-transformation`` (Figure 4, compositionality)
    two sources and no follow-up; the model split into ``z = f(x)`` and ``y = g(z)``,
    ``P_hid`` over the hidden representations, ``P_out`` over the outputs.
``three-way`` (Figure 5, transitivity)
    three sources combined into the pairs ``x12``, ``x23``, ``x13``; ``P`` over their outputs.

The shape is read from a ``diagram_shape`` attribute of the relation (or of its property
or transformation) when one is declared, and otherwise inferred from the relation's
category and number of sources (:func:`diagram_shape`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from .errors import MTError

SHAPES: tuple[str, ...] = ("single", "combination", "pairwise", "no-transformation", "three-way")

# Other names a relation may declare its shape by (the paper's names for the classes).
_ALIASES: Mapping[str, str] = {
    "single-input": "single",
    "multi-source": "combination",
    "systematicity": "pairwise",
    "pairwise-systematicity": "pairwise",
    "compositionality": "no-transformation",
    "pairwise-compositionality": "no-transformation",
    "transitivity": "three-way",
    "three-way-transitivity": "three-way",
}

# Geometry, in pixels: one unit of a layout's x (y) coordinate, node sizes, margins, type.
_COL = 120.0
_ROW = 84.0
_RADIUS = 19.0  # circles (texts)
_HALF = 17.0  # half the side of a square (numbers)
_MARGIN = 16.0
_MIN_WIDTH = 400.0
_MAX_WIDTH = 560.0  # a long heading widens the canvas up to this, then wraps
_TITLE_PX = 14.0
_TEXT_PX = 12.0
_SMALL_PX = 11.0
_LINE = 1.35  # line height, in font sizes
_FONTS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

# Characters XML 1.0 does not allow (control characters, lone surrogates, U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# -- facts read from the relation ---------------------------------------------------------
@dataclass(frozen=True)
class _Facts:
    """What the drawing says about a relation, read once from its metadata."""

    name: str
    task: str
    category: str
    description: str
    expected: str
    paper: str
    n_sources: int
    property_text: str
    text_output: bool  # the model answers with text (a summary): outputs are circles


def _facts(relation: Any) -> _Facts:
    info_fn = getattr(relation, "info", None)
    info: Mapping[str, Any] = info_fn() if callable(info_fn) else {}

    def read(key: str, default: Any = "") -> Any:
        value = info.get(key, getattr(relation, key, default))
        return default if value is None else value

    prop = getattr(relation, "property", None)
    task = str(read("task"))
    try:
        n_sources = int(read("n_sources", 1))
    except (TypeError, ValueError):
        n_sources = 1
    return _Facts(
        name=str(read("name")), task=task, category=str(read("category")),
        description=str(read("description")), expected=str(read("expected")), paper=str(read("paper")),
        n_sources=max(1, n_sources), property_text=str(getattr(prop, "description", "") or ""),
        text_output=_prediction_kind(task) == "text",
    )


def _prediction_kind(task: str) -> str | None:
    """The task's prediction kind, ``None`` for a task not registered (drawn as numbers)."""
    from .task import get_task

    try:
        return get_task(task).prediction
    except MTError:
        return None


# -- shape ----------------------------------------------------------------------------------
def diagram_shape(relation: Any) -> str:
    """The shape :func:`diagram` draws ``relation`` in, one of :data:`SHAPES`.

    A ``diagram_shape`` attribute on the relation, its output property or its
    transformation (in that order) decides; without one the shape is inferred: a category
    naming transitivity (or three sources or more) is ``three-way``, compositionality is
    ``no-transformation``, systematicity or "pairwise" is ``pairwise``, two sources are a
    ``combination``, anything else ``single``.
    """
    for owner in (relation, getattr(relation, "property", None), getattr(relation, "transformation", None)):
        hint = getattr(owner, "diagram_shape", None)
        if hint:
            return _normalise_shape(str(hint), relation)
    facts = _facts(relation)
    category = facts.category.lower()
    if "transitiv" in category or facts.n_sources >= 3:
        return "three-way"
    if "compositional" in category:
        return "no-transformation"
    if "systematic" in category or "pairwise" in category:
        return "pairwise"
    if facts.n_sources == 2:
        return "combination"
    return "single"


def _normalise_shape(hint: str, relation: Any) -> str:
    key = hint.strip().lower().replace("_", "-").replace(" ", "-")
    shape = _ALIASES.get(key, key)
    if shape not in SHAPES:
        raise MTError(
            f"relation {getattr(relation, 'name', relation)!r} declares diagram_shape {hint!r}; "
            f"use one of {', '.join(SHAPES)}"
        )
    return shape


# -- the figure as data ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Label:
    """A variable's name: ``base`` with an optional subscript and prime (``x₁′``)."""

    base: str
    sub: str = ""
    prime: bool = False

    @property
    def plain(self) -> str:
        return f"{self.base}{self.sub}{'′' if self.prime else ''}"


@dataclass(frozen=True)
class _Node:
    key: str
    x: float  # layout units
    y: float
    label: _Label
    circle: bool  # a text (circle) or a number (square)
    source: bool  # shaded grey
    tip: str


@dataclass(frozen=True)
class _Edge:
    start: str
    end: str
    label: str = ""  # "T", "f", "g" or nothing
    # Two control points (layout units) of a cubic curve; None: a straight arrow.
    bend: tuple[tuple[float, float], tuple[float, float]] | None = None


@dataclass(frozen=True)
class _Prop:
    """A property node (``P``, ``P_src``, ...) with dashed links to the nodes it is over."""

    key: str
    x: float
    y: float
    label: _Label
    links: tuple[str, ...]
    tip: str


@dataclass(frozen=True)
class _Figure:
    nodes: tuple[_Node, ...]
    edges: tuple[_Edge, ...]
    props: tuple[_Prop, ...]
    has_transformation: bool = True


def _src(key: str, x: float, y: float, label: _Label, what: str = "source input") -> _Node:
    return _Node(key, x, y, label, True, True, f"{what} {label.plain} (a text, chosen freely)")


def _flw(key: str, x: float, y: float, label: _Label, how: str) -> _Node:
    return _Node(key, x, y, label, True, False, f"follow-up input {label.plain} = {how}")


def _out(facts: _Facts, key: str, x: float, y: float, label: _Label, of: str, model: str = "f") -> _Node:
    kind = "a text" if facts.text_output else "scores"
    return _Node(key, x, y, label, facts.text_output, False, f"output {label.plain} = {model}({of}) ({kind})")


def _main_property(facts: _Facts, x: float, y: float, links: tuple[str, ...]) -> _Prop:
    tip = facts.expected + (f" ({facts.property_text})" if facts.property_text not in ("", facts.expected) else "")
    return _Prop("P", x, y, _Label("P"), links, f"output property P: {tip}")


def _single(facts: _Facts) -> _Figure:
    x, xf = _Label("x"), _Label("x", prime=True)
    y, yf = _Label("y"), _Label("y", prime=True)
    return _Figure(
        nodes=(
            _src("x", 0, 0, x), _flw("xf", 2, 0, xf, "T(x)"),
            _out(facts, "y", 0, 1, y, "x"), _out(facts, "yf", 2, 1, yf, "x′"),
        ),
        edges=(_Edge("x", "xf", "T"), _Edge("x", "y", "f"), _Edge("xf", "yf", "f")),
        props=(_main_property(facts, 1, 1, ("y", "yf")),),
    )


def _combination(facts: _Facts) -> _Figure:
    x1, x2, xf = _Label("x", "1"), _Label("x", "2"), _Label("x", prime=True)
    return _Figure(
        nodes=(
            _src("x1", 0, 0, x1), _flw("xf", 1, 0, xf, "T(x₁, x₂)"), _src("x2", 2, 0, x2),
            _out(facts, "y1", 0, 1, _Label("y", "1"), "x₁"), _out(facts, "yf", 1, 1, _Label("y", prime=True), "x′"),
            _out(facts, "y2", 2, 1, _Label("y", "2"), "x₂"),
        ),
        edges=(
            _Edge("x1", "xf", "T"), _Edge("x2", "xf", "T"),
            _Edge("x1", "y1", "f"), _Edge("xf", "yf", "f"), _Edge("x2", "y2", "f"),
        ),
        props=(_main_property(facts, 1, 1.85, ("y1", "yf", "y2")),),
    )


def _pairwise(facts: _Facts) -> _Figure:
    right = 2.2
    nodes = (
        _src("x1", 0, 0, _Label("x", "1")), _flw("x1f", right, 0, _Label("x", "1", True), "T(x₁)"),
        _out(facts, "y1", 0, 0.95, _Label("y", "1"), "x₁"), _out(facts, "y1f", right, 0.95, _Label("y", "1", True), "x₁′"),
        _out(facts, "y2", 0, 1.95, _Label("y", "2"), "x₂"), _out(facts, "y2f", right, 1.95, _Label("y", "2", True), "x₂′"),
        _src("x2", 0, 2.9, _Label("x", "2")), _flw("x2f", right, 2.9, _Label("x", "2", True), "T(x₂)"),
    )
    edges = (
        _Edge("x1", "x1f", "T"), _Edge("x2", "x2f", "T"),
        _Edge("x1", "y1", "f"), _Edge("x1f", "y1f", "f"), _Edge("x2", "y2", "f"), _Edge("x2f", "y2f", "f"),
    )
    mid = 1.45
    props = (
        _Prop("Psrc", 0.55, mid, _Label("P", "src"), ("y1", "y2"), "premise P_src over the source outputs"),
        _Prop("Pflw", right - 0.55, mid, _Label("P", "flw"), ("y1f", "y2f"),
              "hypothesis P_flw over the follow-up outputs"),
        _main_property(facts, right / 2, mid, ("Psrc", "Pflw")),
    )
    return _Figure(nodes, edges, props)


def _no_transformation(facts: _Facts) -> _Figure:
    low = 1.8
    nodes = (
        _src("x1", 0, 0, _Label("x", "1")), _src("x2", 0, low, _Label("x", "2")),
        _Node("z1", 1.1, 0, _Label("z", "1"), False, False, "hidden representation z₁ = f(x₁)"),
        _Node("z2", 1.1, low, _Label("z", "2"), False, False, "hidden representation z₂ = f(x₂)"),
        _out(facts, "y1", 2.2, 0, _Label("y", "1"), "z₁", "g"), _out(facts, "y2", 2.2, low, _Label("y", "2"), "z₂", "g"),
    )
    edges = (
        _Edge("x1", "z1", "f"), _Edge("z1", "y1", "g"), _Edge("x2", "z2", "f"), _Edge("z2", "y2", "g"),
    )
    props = (
        _Prop("Phid", 1.1, low / 2, _Label("P", "hid"), ("z1", "z2"), "premise P_hid over the hidden representations"),
        _Prop("Pout", 2.2, low / 2, _Label("P", "out"), ("y1", "y2"), "hypothesis P_out over the outputs"),
        _main_property(facts, 1.65, low / 2, ("Phid", "Pout")),
    )
    return _Figure(nodes, edges, props, has_transformation=False)


def _three_way(facts: _Facts) -> _Figure:
    sources = tuple(_src(f"x{i}", i - 1, 0, _Label("x", str(i))) for i in (1, 2, 3))
    pairs = (("12", 0.5), ("23", 1.5), ("13", 2.5))
    inputs = tuple(
        _flw(f"x{ij}", at, 1, _Label("x", ij), f"(x{_SUB[ij[0]]}, x{_SUB[ij[1]]})") for ij, at in pairs
    )
    outputs = tuple(
        _out(facts, f"y{ij}", at, 2, _Label("y", ij), f"x{_SUB[ij[0]]}{_SUB[ij[1]]}") for ij, at in pairs
    )
    edges = (
        _Edge("x1", "x12"), _Edge("x2", "x12"), _Edge("x2", "x23"), _Edge("x3", "x23"), _Edge("x3", "x13"),
        # x1 -> x13 arcs over the sources so that no two arrows cross.
        _Edge("x1", "x13", bend=((0.15, -1.15), (3.35, -1.1))),
        *(_Edge(f"x{ij}", f"y{ij}", "f") for ij, _ in pairs),
    )
    props = (_main_property(facts, 1.5, 2.85, ("y12", "y23", "y13")),)
    return _Figure((*sources, *inputs, *outputs), edges, props)


_SUB = {str(d): chr(0x2080 + d) for d in range(10)}

_LAYOUTS: Mapping[str, Callable[[_Facts], _Figure]] = {
    "single": _single,
    "combination": _combination,
    "pairwise": _pairwise,
    "no-transformation": _no_transformation,
    "three-way": _three_way,
}


# -- text -------------------------------------------------------------------------------------
def _clean(text: str) -> str:
    """``text`` on one line with only characters XML allows (others become U+FFFD)."""
    return " ".join(_NOT_XML.sub("\ufffd", str(text)).split())


def _esc(text: str) -> str:
    """Escaped for XML text and double-quoted attribute values alike."""
    return escape(_clean(text), {'"': "&quot;", "'": "&#39;"})


def _char_em(ch: str) -> float:
    """A rough advance width of ``ch`` in ems (no font metrics offline; errs wide, so that a
    line never runs past the canvas)."""
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    if unicodedata.combining(ch):
        return 0.0
    if ch in "il.,:;'|!()[]{} ":
        return 0.32
    if ch.isascii():
        return 0.72 if ch.isupper() or ch in "mwMW@%&" else 0.55
    return 0.62 if ch.isalpha() else 0.95


def _text_px(text: str, size: float) -> float:
    return sum(_char_em(c) for c in text) * size


def _wrap(text: str, width: float, size: float, max_lines: int) -> tuple[list[str], bool]:
    """Greedy word wrap of ``text`` into lines of at most ``width`` pixels; a word longer
    than a line (a URL, Chinese text) is cut by characters. The second value says whether
    lines were dropped (the last kept line then ends with an ellipsis)."""
    lines: list[str] = []
    line = ""
    for word in _clean(text).split(" "):
        candidate = f"{line} {word}" if line else word
        if _text_px(candidate, size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and _text_px(line + ch, size) > width:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    if len(lines) <= max_lines:
        return lines, False
    kept = lines[:max_lines]
    last = kept[-1]
    while last and _text_px(last + " …", size) > width:
        last = last[:-1]
    kept[-1] = last.rstrip() + " …"
    return kept, True


# -- the SVG ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Diagram:
    """A relation's diagram: ``svg`` is the standalone SVG document (``str()`` gives it too).

    In a notebook it shows itself (``_repr_svg_`` / ``_repr_html_``); :meth:`save` writes
    the ``.svg`` file.
    """

    svg: str
    relation: str
    shape: str
    width: int
    height: int

    def __str__(self) -> str:
        return self.svg

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return f'<div class="mtw-diagram">{self.svg}</div>'

    def save(self, path: str | Path) -> Path:
        """Write the SVG to ``path`` (UTF-8) and return the path."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.svg, encoding="utf-8")
        return p


def diagram(relation: Any) -> Diagram:
    """``relation`` (a :class:`~mtwidgets.core.relation.MetamorphicRelation`) drawn in the
    paper's notation; by name: ``mt.relation("MR-R1").diagram()``.

    >>> d = mt.relation("MR-R1").diagram()   # doctest: +SKIP
    >>> d.shape, d.svg[:4]                   # doctest: +SKIP
    ('single', '<svg')
    """
    if isinstance(relation, str):
        raise MTError(f"diagram() takes a relation, not its name: mt.relation({relation!r}).diagram()")
    facts = _facts(relation)
    shape = diagram_shape(relation)
    figure = _LAYOUTS[shape](facts)
    svg, width, height = _Canvas(facts, figure).render()
    return Diagram(svg=svg, relation=facts.name, shape=shape, width=width, height=height)


@dataclass(frozen=True)
class _Box:
    """Where a node or property sits on the canvas (pixels) and how far its outline is."""

    cx: float
    cy: float
    half_w: float
    half_h: float
    round: bool

    def reach(self, dx: float, dy: float) -> float:
        """Distance from the centre to the outline in direction (dx, dy) (a unit vector)."""
        if self.round:
            return self.half_w
        ax, ay = abs(dx), abs(dy)
        return min(self.half_w / ax if ax > 1e-9 else math.inf, self.half_h / ay if ay > 1e-9 else math.inf)


class _Canvas:
    """Lays a figure out and writes it, with its heading and caption, as SVG."""

    def __init__(self, facts: _Facts, figure: _Figure) -> None:
        self.facts = facts
        self.figure = figure
        self.parts: list[str] = []
        self.origin = (0.0, 0.0)  # where layout point (0, 0) falls on the canvas

    # geometry
    def _boxes(self, left: float, top: float) -> dict[str, _Box]:
        self.origin = (left, top)
        boxes: dict[str, _Box] = {}
        for n in self.figure.nodes:
            half = _RADIUS if n.circle else _HALF
            boxes[n.key] = _Box(left + n.x * _COL, top + n.y * _ROW, half, half, n.circle)
        for p in self.figure.props:
            w = _text_px(p.label.plain, _TEXT_PX) / 2 + 9
            boxes[p.key] = _Box(left + p.x * _COL, top + p.y * _ROW, w, 11, False)
        return boxes

    def _extent(self) -> tuple[float, float, float, float]:
        """min x, min y, max x, max y of the figure in pixels at origin 0 (curves included)."""
        xs = [n.x for n in self.figure.nodes] + [p.x for p in self.figure.props]
        ys = [n.y for n in self.figure.nodes] + [p.y for p in self.figure.props]
        where = {n.key: (n.x, n.y) for n in self.figure.nodes}
        for e in self.figure.edges:
            if e.bend is not None:
                points = (where[e.start], *e.bend, where[e.end])
                for k in range(1, 20):
                    bx, by = _bezier(points, k / 20)
                    xs.append(bx)
                    ys.append(by)
        pad = _RADIUS + 4
        return min(xs) * _COL - pad, min(ys) * _ROW - pad, max(xs) * _COL + pad, max(ys) * _ROW + pad

    def render(self) -> tuple[str, int, int]:
        x0, y0, x1, y1 = self._extent()
        heading = _text_px(self._heading_text(), _TITLE_PX) + 2 * _MARGIN
        width = max(_MIN_WIDTH, x1 - x0 + 2 * _MARGIN, min(heading, _MAX_WIDTH))
        inner = width - 2 * _MARGIN
        y = _MARGIN
        y = self._heading(y, inner)
        left = (width - (x1 - x0)) / 2 - x0
        top = y + 6 - y0
        boxes = self._boxes(left, top)
        self._figure(boxes)
        y = top + y1 + 10
        y = self._caption(y, inner)
        height = y + _MARGIN - _TEXT_PX * (_LINE - 1)
        w, h = int(math.ceil(width)), int(math.ceil(height))
        title = _esc(f"{self.facts.name}: {self.facts.description} Expected: {self.facts.expected}")
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="mtw-diagram" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" role="img" font-family="{_esc(_FONTS)}" font-size="{_TEXT_PX:g}">'
            f"<title>{title}</title>"
            # Drawn standalone (a file, an <img>), the SVG is its own document: light text on
            # a dark preference. Inline in a page (:root does not match) it takes the page's colour.
            "<style>@media (prefers-color-scheme: dark){svg.mtw-diagram:root{color:#e6edf3}}</style>"
        )
        return head + "".join(self.parts) + "</svg>", w, h

    # pieces
    def _text_block(self, y: float, inner: float, text: str, *, size: float, max_lines: int,
                    prefix: str = "", opacity: float = 1.0) -> float:
        """Wrapped lines of ``prefix + text`` (the prefix in bold) from ``y``, the top of the
        block; the full text is always the block's tooltip, so nothing a truncation drops is
        lost. Returns the y below the block."""
        full = f"{prefix}{text}"
        lines, _ = _wrap(full, inner - 6, size, max_lines)  # 6: the bold prefix and its gap
        attrs = f' fill="currentColor" font-size="{size:g}"'
        if opacity < 1:
            attrs += f' fill-opacity="{opacity:g}"'
        out = [f"<g><title>{_esc(full)}</title>"]
        stem = prefix.strip()
        for k, line in enumerate(lines):
            baseline = y + size * (k * _LINE + 1)
            body = _esc(line)
            if k == 0 and stem and line.startswith(stem):
                # A space at a <tspan> boundary may collapse: the gap is a dx instead.
                body = f'<tspan font-weight="600">{_esc(stem)}</tspan><tspan dx="4">{_esc(line[len(stem):].strip())}</tspan>'
            out.append(f'<text x="{_MARGIN:g}" y="{baseline:.1f}"{attrs}>{body}</text>')
        out.append("</g>")
        self.parts.append("".join(out))
        return y + size * _LINE * len(lines)

    def _heading_text(self) -> str:
        rest = " · ".join(v for v in (self.facts.category, self.facts.task) if v)
        return f"{self.facts.name} · {rest}" if rest else self.facts.name

    def _heading(self, y: float, inner: float) -> float:
        """The relation's name in bold, then its category and task (two lines at most)."""
        facts = self.facts
        full = self._heading_text()
        lines, _ = _wrap(full, inner, _TITLE_PX, 2)
        out = [f"<g><title>{_esc(full)}</title>"]
        for k, line in enumerate(lines):
            baseline = y + _TITLE_PX * (k * _LINE + 1)
            if k == 0 and line.startswith(facts.name):
                tail = line[len(facts.name):].strip()
                body = f'<tspan font-weight="600">{_esc(facts.name)}</tspan>'
                if tail:
                    body += f'<tspan dx="5" fill-opacity="0.7">{_esc(tail)}</tspan>'
            else:
                body = f'<tspan fill-opacity="0.7">{_esc(line)}</tspan>'
            out.append(f'<text x="{_MARGIN:g}" y="{baseline:.1f}" fill="currentColor" font-size="{_TITLE_PX:g}">{body}</text>')
        out.append("</g>")
        self.parts.append("".join(out))
        return y + _TITLE_PX * _LINE * len(lines) + 4

    def _caption(self, y: float, inner: float) -> float:
        facts = self.facts
        if facts.description:
            prefix = "T: " if self.figure.has_transformation else ""
            y = self._text_block(y, inner, facts.description, size=_TEXT_PX, max_lines=3, prefix=prefix)
        if facts.expected:
            y = self._text_block(y, inner, facts.expected, size=_TEXT_PX, max_lines=2, prefix="P: ")
        legend = "circles: texts · squares: scores · grey: source inputs · dashed: the output property P"
        y = self._text_block(y + 2, inner, legend, size=_SMALL_PX, max_lines=2, opacity=0.65)
        if facts.paper:
            y = self._text_block(y, inner, facts.paper, size=_SMALL_PX, max_lines=1, opacity=0.65)
        return y

    def _figure(self, boxes: dict[str, _Box]) -> None:
        out: list[str] = ['<g fill="none" stroke="currentColor" stroke-width="1.4">']
        for p in self.figure.props:  # dashed links first, under the nodes
            for key in p.links:
                out.append(self._segment(boxes[p.key], boxes[key], dashed=True))
        for e in self.figure.edges:
            out.append(self._arrow(e, boxes))
        for n in self.figure.nodes:
            out.append(self._node(n, boxes[n.key]))
        for p in self.figure.props:
            out.append(self._prop(p, boxes[p.key]))
        out.append("</g>")
        self.parts.append("".join(out))

    @staticmethod
    def _segment(a: _Box, b: _Box, *, dashed: bool) -> str:
        sx, sy = _outline(a, b.cx - a.cx, b.cy - a.cy)
        ex, ey = _outline(b, a.cx - b.cx, a.cy - b.cy)
        dash = ' stroke-dasharray="4 3" stroke-opacity="0.8"' if dashed else ""
        return f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}"{dash}/>'

    def _arrow(self, e: _Edge, boxes: dict[str, _Box]) -> str:
        a, b = boxes[e.start], boxes[e.end]
        if e.bend is None:
            c1, c2 = (b.cx, b.cy), (a.cx, a.cy)  # straight: leaves towards b, arrives from a
        else:
            left, top = self.origin
            c1, c2 = ((left + cx * _COL, top + cy * _ROW) for cx, cy in e.bend)
        sx, sy = _outline(a, c1[0] - a.cx, c1[1] - a.cy)
        ux, uy = _unit(b.cx - c2[0], b.cy - c2[1])  # the direction the arrow arrives in
        ex, ey = _outline(b, -ux, -uy, gap=1)
        if e.bend is None:
            path = f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex - ux * 7:.1f}" y2="{ey - uy * 7:.1f}"/>'
            mid = ((sx + ex) / 2, (sy + ey) / 2)
        else:
            path = (f'<path d="M{sx:.1f},{sy:.1f} C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} '
                    f'{ex - ux * 7:.1f},{ey - uy * 7:.1f}"/>')
            mid = _bezier(((sx, sy), c1, c2, (ex, ey)), 0.5)
        # The arrowhead: a filled triangle whose tip touches the end node.
        px, py = -uy, ux
        head = (f'<polygon points="{ex:.1f},{ey:.1f} {ex - ux * 8 + px * 3.6:.1f},{ey - uy * 8 + py * 3.6:.1f} '
                f'{ex - ux * 8 - px * 3.6:.1f},{ey - uy * 8 - py * 3.6:.1f}" fill="currentColor" stroke="none"/>')
        label = ""
        if e.label:
            # Beside the middle of the arrow: left of a vertical one, above a horizontal one.
            ox, oy = (-9.0, 0.0) if abs(uy) > abs(ux) else (0.0, -7.0)
            label = (f'<text x="{mid[0] + ox:.1f}" y="{mid[1] + oy:.1f}" text-anchor="middle" '
                     f'dominant-baseline="central" font-style="italic" fill="currentColor" stroke="none">'
                     f"{_esc(e.label)}</text>")
        tip = {"T": "transformation T", "f": "the model f", "g": "the model's last layers g"}.get(e.label, "")
        title = f"<title>{_esc(tip)}</title>" if tip else ""
        return f"<g>{title}{path}{head}{label}</g>"

    @staticmethod
    def _label(label: _Label, cx: float, cy: float, size: float, italic: bool = True) -> str:
        style = ' font-style="italic"' if italic else ""
        body = _esc(label.base)
        if label.sub:
            body += f'<tspan dy="{size * 0.3:.1f}" font-size="{size * 0.72:.1f}">{_esc(label.sub)}</tspan>'
        if label.prime:
            shift = f' dy="{-size * 0.3:.1f}"' if label.sub else ""
            body += f"<tspan{shift}>′</tspan>"
        return (f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" dominant-baseline="central" '
                f'font-size="{size:g}"{style} fill="currentColor" stroke="none">{body}</text>')

    def _node(self, n: _Node, box: _Box) -> str:
        fill = 'fill="currentColor" fill-opacity="0.2"' if n.source else 'fill="none"'
        if n.circle:
            shape = f'<circle cx="{box.cx:.1f}" cy="{box.cy:.1f}" r="{box.half_w:g}" {fill}/>'
        else:
            side = 2 * box.half_w
            shape = (f'<rect x="{box.cx - box.half_w:.1f}" y="{box.cy - box.half_h:.1f}" width="{side:g}" '
                     f'height="{side:g}" {fill}/>')
        return f"<g><title>{_esc(n.tip)}</title>{shape}{self._label(n.label, box.cx, box.cy, 14)}</g>"

    def _prop(self, p: _Prop, box: _Box) -> str:
        rect = (f'<rect x="{box.cx - box.half_w:.1f}" y="{box.cy - box.half_h:.1f}" width="{2 * box.half_w:.1f}" '
                f'height="{2 * box.half_h:g}" rx="5" fill="none" stroke-dasharray="4 3"/>')
        return f"<g><title>{_esc(p.tip)}</title>{rect}{self._label(p.label, box.cx, box.cy, _TEXT_PX)}</g>"


def _outline(box: _Box, dx: float, dy: float, gap: float = 0.0) -> tuple[float, float]:
    """The point where a line from ``box``'s centre in direction (dx, dy) leaves its
    outline (``gap`` pixels further out)."""
    ux, uy = _unit(dx, dy)
    reach = box.reach(ux, uy) + gap
    return box.cx + ux * reach, box.cy + uy * reach


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _bezier(points: tuple[tuple[float, float], ...], t: float) -> tuple[float, float]:
    """The point at ``t`` of the cubic Bezier curve with these four points."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = points
    u = 1 - t
    w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return w[0] * ax + w[1] * bx + w[2] * cx + w[3] * dx, w[0] * ay + w[1] * by + w[2] * cy + w[3] * dy
