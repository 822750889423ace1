"""The promises of the README and the design card that a fresh install relies on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.+?)\n```", text)[:2]


def test_readme_opens_with_two_commands_and_ci_runs_the_test_one() -> None:
    text = (ROOT / "README.md").read_text()
    first_block = text.index("```bash")
    assert text[:first_block].strip() == "# mtwidgets"
    install_and_demo, install_and_test = _readme_commands()
    assert install_and_demo.endswith("mtwidgets demo")
    assert "pytest" in install_and_test
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert install_and_test in ci, ".ci/run must run the README's test command verbatim"


def test_import_is_light() -> None:
    code = "import sys, mtwidgets; print(','.join(m for m in ('torch','transformers','spacy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"import mtwidgets loaded {out}"


def test_torch_is_the_cpu_build() -> None:
    import torch

    assert torch.__version__.endswith("+cpu"), torch.__version__


def test_lint_and_types_are_clean() -> None:
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "mtwidgets", "tests", "benchmarks"],
                          capture_output=True, text=True, cwd=ROOT)
    assert ruff.returncode == 0, ruff.stdout[-3000:]
    mypy = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=ROOT)
    assert mypy.returncode == 0, mypy.stdout[-3000:]


def test_every_front_end_file_ships_in_the_wheel() -> None:
    """js/*.js and js/*.css are the widgets' front ends; the wheel carries each one as
    mtwidgets/static/<name> (and nothing from js/tests)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assets = {f"js/{p.name}" for p in (ROOT / "js").iterdir() if p.suffix in (".js", ".css")}
    assert assets >= {"js/explorer.js", "js/batch_panel.js"}
    assert {k: v for k, v in shipped.items() if k.startswith("js/")} == {a: f"mtwidgets/static/{a[3:]}" for a in assets}
