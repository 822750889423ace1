"""Where the widgets' front-end files are, in a wheel and in a source checkout.

Wheels ship the repository's ``js/`` folder as ``mtwidgets/static/`` (see the
force-include in ``pyproject.toml``); an editable install has no ``static/`` folder, so the
files are read from ``js/`` next to the package. anywidget accepts the returned paths as
``_esm``/``_css`` directly.

anywidget loads a widget's ES module from a string, so a relative ``import`` inside it
cannot resolve. Shared front-end code (``js/common.js``: the ``h()`` DOM helper, ...) is
therefore inlined: a line ``// @include common.js`` in a widget module is replaced by that
file's text when :func:`esm` builds the module (the JS unit tests serve the modules through
the same function, see ``tests/widgets/_jsserve.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def asset_path(name: str) -> Path:
    """The path of the front-end file ``name`` (e.g. ``"explorer.js"``).

    Raises
    ------
    FileNotFoundError
        When neither the installed ``static/`` folder nor the checkout's ``js/`` holds it,
        naming both places so a broken install is easy to diagnose.
    """
    for candidate in (_PACKAGE / "static" / name, _PACKAGE.parent / "js" / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"front-end file {name!r} not found in {_PACKAGE / 'static'} nor in {_PACKAGE.parent / 'js'}; "
        "reinstall mtwidgets (pip install 'mtwidgets[lab]') or run from a full source checkout"
    )


# A line that is only `// @include <file>.js` (the file next to the module).
_INCLUDE = re.compile(r"^[ \t]*//[ \t]*@include[ \t]+([\w.-]+\.js)[ \t]*$", re.M)


def inline_includes(source: str, folder: Path, _seen: set[str] | None = None) -> str:
    """``source`` with each ``// @include name.js`` line replaced by that file's text
    (itself with its includes inlined; a file is included once per module)."""
    seen = set() if _seen is None else _seen

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in seen:
            return f"// (already included: {name})"
        seen.add(name)
        path = folder / name
        if not path.is_file():
            path = asset_path(name)
        body = inline_includes(path.read_text(encoding="utf-8"), folder, seen)
        return f"// ---- {name} (inlined) ----\n{body.rstrip()}\n// ---- end of {name} ----"

    return _INCLUDE.sub(one, source)


def esm(name: str) -> str:
    """The ES module ``name`` as anywidget's ``_esm`` string, shared files inlined."""
    path = asset_path(name)
    return inline_includes(path.read_text(encoding="utf-8"), path.parent)
