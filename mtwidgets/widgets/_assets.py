"""Where the widgets' front-end files are, in a wheel and in a source checkout.

Wheels ship the repository's ``js/`` folder as ``mtwidgets/static/`` (see the
force-include in ``pyproject.toml``); an editable install has no ``static/`` folder, so the
files are read from ``js/`` next to the package. anywidget accepts the returned paths as
``_esm``/``_css`` directly.
"""

from __future__ import annotations

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
