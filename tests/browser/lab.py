"""A real JupyterLab driven by a real browser (Playwright + Debian's Chromium).

Why a harness of our own: the widgets must work in the front end users actually run, so the
browser tests start a JupyterLab server on a free port with every Jupyter directory pointed
at a temporary folder (nothing of the user's config leaks in, nothing is left behind),
launch the system Chromium (Playwright's own browser download fails offline),
and talk to the notebook's kernel through the app object JupyterLab exposes
(``--LabApp.expose_app_in_browser``). One server serves the whole test session; each test
opens its own notebook in its own browser context.

Failures carry what is needed to understand them without re-running: the server log tail,
the page's console messages, and the kernel traceback when notebook code raised.

Environment:

``MTW_CHROMIUM``
    Path of the Chromium binary (default ``/usr/bin/chromium``).
``MTW_SCREENSHOTS``
    Folder that keeps the screenshots (default: a temporary folder removed at the end).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# Settings written before the server starts. The news/update check would put a pop-up over
# the page; saveState makes JupyterLab store widget state in the notebook on save, which is
# what lets a reopened notebook render its widgets without re-running the cells.
DEFAULT_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyter-widgets/jupyterlab-manager/plugin": {"saveState": True},
}

# Generous: the machine has two shared cores and a kernel may load spaCy and torch models.
START_TIMEOUT_S = 120.0
OPEN_TIMEOUT_S = 120.0
RUN_TIMEOUT_S = 240.0

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# JavaScript run in the page: the notebook panel whose document is at `path`.
_FIND_PANEL = """
const findPanel = (path) => {
  const app = window.jupyterapp;
  if (!app) return null;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path) return w;
  }
  return null;
};
"""


class LabError(AssertionError):
    """A harness step failed; the message says which, and carries the logs that explain it."""


class KernelError(LabError):
    """Code run in the notebook's kernel raised; the message holds its traceback."""


def free_port() -> int:
    """A TCP port free on the loopback interface right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_notebook(path: Path, cells: Sequence[str], *, markdown: Sequence[int] = ()) -> Path:
    """Write a Python 3 notebook whose code cells are ``cells`` (indices in ``markdown`` are
    markdown cells). The kernelspec is set so JupyterLab starts the kernel without asking."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(src) if i in markdown else nbformat.v4.new_code_cell(src)
        for i, src in enumerate(cells)
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


class LabServer:
    """A JupyterLab server process with private config, runtime, settings and workspaces.

    Parameters
    ----------
    root:
        Folder holding everything of this server: ``notebooks/`` (the server's root dir,
        where tests write notebooks) and the private Jupyter directories.
    settings:
        JupyterLab settings by plugin id, written as ``<id>.jupyterlab-settings`` files.
    """

    def __init__(self, root: Path, settings: dict[str, dict[str, Any]] | None = None) -> None:
        self.root = root
        self.notebooks = root / "notebooks"
        self.log_path = root / "server.log"
        self.settings = DEFAULT_SETTINGS if settings is None else settings
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        dirs = {
            "JUPYTER_CONFIG_DIR": "config",
            "JUPYTER_RUNTIME_DIR": "runtime",
            "JUPYTERLAB_SETTINGS_DIR": "settings",
            "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
            "IPYTHONDIR": "ipython",
        }
        for var, name in dirs.items():
            (self.root / name).mkdir(parents=True, exist_ok=True)
            env[var] = str(self.root / name)
        # Kernels must not reach a model hub; the project's models are embedded.
        env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1")
        return env

    def _write_settings(self) -> None:
        for plugin, values in self.settings.items():
            path = self.root / "settings" / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))

    def start(self, timeout: float = START_TIMEOUT_S) -> None:
        self.notebooks.mkdir(parents=True, exist_ok=True)
        env = self._env()
        self._write_settings()
        self.port = free_port()
        cmd = [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
            "--ServerApp.port_retries=0", "--IdentityProvider.token=", "--ServerApp.password=",
            f"--ServerApp.root_dir={self.notebooks}", "--LabApp.expose_app_in_browser=True",
            # A loopback-only throwaway server: let the harness POST /api/shutdown without a cookie.
            "--ServerApp.disable_check_xsrf=True",
        ]  # fmt: skip
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")  # JupyterLab refuses to start as root otherwise (CI, containers)
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            cmd, cwd=self.notebooks, env=env, stdout=self._log_file, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LabError(
                    f"JupyterLab exited with code {self.proc.returncode} while starting; command: "
                    f"{' '.join(cmd)}\n--- server log ---\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=5) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.3)
        self.stop()
        raise LabError(f"JupyterLab did not answer on {self.url} within {timeout:.0f} s\n--- server log ---\n"
                       f"{self.log_tail()}")  # fmt: skip

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the server's REST API; the JSON reply (or None)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def kernel_pids(self) -> list[int]:
        """Process ids of the kernels this server started (they run in sessions of their own,
        so they must be found as children, not through the server's process group)."""
        import psutil

        if self.proc is None or self.proc.poll() is not None:
            return []
        try:
            return [c.pid for c in psutil.Process(self.proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def stop(self, timeout: float = 30.0) -> list[int]:
        """Shut the server down with its kernels; returns the pids that had to be killed."""
        import psutil

        killed: list[int] = []
        if self.proc is not None and self.proc.poll() is None:
            children = self.kernel_pids()
            with contextlib.suppress(Exception):
                self.api("POST", "/api/shutdown")
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(timeout=10)
                    killed.append(self.proc.pid)
            for pid in children:  # any kernel the server failed to shut down
                with contextlib.suppress(psutil.NoSuchProcess):
                    child = psutil.Process(pid)
                    try:
                        child.wait(timeout=5)
                    except psutil.TimeoutExpired:
                        child.kill()
                        killed.append(pid)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        return killed


class NotebookPage:
    """One notebook open in its own browser context: run it, query it, talk to its kernel."""

    def __init__(self, lab: Lab, path: str, page: Any, context: Any) -> None:
        self.lab = lab
        self.path = path
        self.page = page
        self.context = context
        self.console: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", lambda m: self.console.append(f"[{m.type}] {m.text}"))
        page.on("pageerror", lambda e: self.console.append(f"[pageerror] {e}"))
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog: Any) -> None:
        # Record and dismiss: a test of hostile text asserts this list stays empty.
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        with contextlib.suppress(Exception):
            dialog.dismiss()

    # -- diagnostics ----------------------------------------------------------------------
    def fail(self, what: str, detail: str = "") -> LabError:
        console = "\n".join(self.console[-25:]) or "(none)"
        return LabError(
            f"{what} (notebook {self.path!r}, lab {self.lab.server.url})\n{detail}\n"
            f"--- browser console (last 25) ---\n{console}\n--- server log ---\n{self.lab.server.log_tail()}"
        )

    def _wait_js(self, expr: str, arg: Any, timeout: float, what: str) -> Any:
        from playwright.sync_api import Error as PlaywrightError

        try:
            return self.page.wait_for_function(expr, arg=arg, timeout=timeout * 1000, polling=100)
        except PlaywrightError as exc:
            raise self.fail(
                f"timed out after {timeout:.0f} s waiting for {what}", str(exc).splitlines()[0]
            ) from None

    # -- lifecycle ------------------------------------------------------------------------
    def wait_ready(self, timeout: float = OPEN_TIMEOUT_S) -> None:
        """Wait until the notebook is shown and its kernel is idle (widget manager attached)."""
        self._wait_js(
            "(path) => {" + _FIND_PANEL + "const p = findPanel(path);"
            " return !!(p && p.context.isReady && p.sessionContext?.session?.kernel?.status === 'idle'"
            " && p.content.widgets.length > 0); }",
            self.path, timeout, "the notebook to open and its kernel to become idle",
        )  # fmt: skip

    def run_all(self, timeout: float = RUN_TIMEOUT_S) -> None:
        """Clear outputs, run every cell, and wait until all code cells have run.

        A cell that raises fails here with its traceback (JupyterLab stops running the rest,
        which would otherwise look like a hang).
        """
        self.page.evaluate(
            "async (path) => {" + _FIND_PANEL + "const p = findPanel(path);"
            " window.jupyterapp.shell.activateById(p.id);"
            " await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');"
            " await window.jupyterapp.commands.execute('notebook:run-all-cells'); }",
            self.path,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            state = self.page.evaluate(
                "(path) => {" + _FIND_PANEL + "const p = findPanel(path);"
                " const cells = p.content.widgets.filter(c => c.model.type === 'code');"
                " const errors = [];"
                " for (const c of cells) for (const o of c.model.outputs.toJSON())"
                "   if (o.output_type === 'error') errors.push((o.traceback || []).join('\\n'));"
                " return {pending: cells.filter(c => c.model.executionCount === null).length,"
                "         status: p.sessionContext?.session?.kernel?.status, errors}; }",
                self.path,
            )  # fmt: skip
            if state["errors"]:
                raise self.fail("a notebook cell raised", _ANSI.sub("", "\n".join(state["errors"])))
            if state["pending"] == 0 and state["status"] == "idle":
                return
            if time.monotonic() > deadline:
                raise self.fail(f"cells still pending after {timeout:.0f} s", f"state: {state}")
            time.sleep(0.2)

    def wait_for(self, selector: str, timeout: float = OPEN_TIMEOUT_S, state: str = "visible") -> Any:
        """The first element matching ``selector`` once it is in ``state``."""
        from playwright.sync_api import Error as PlaywrightError

        loc = self.page.locator(selector).first
        try:
            loc.wait_for(state=state, timeout=timeout * 1000)
        except PlaywrightError as exc:
            raise self.fail(f"timed out after {timeout:.0f} s waiting for {selector!r} to be {state}",
                            str(exc).splitlines()[0]) from None  # fmt: skip
        return loc

    def wait_until(self, js_predicate: str, arg: Any = None, timeout: float = 30.0, what: str = "") -> Any:
        """Wait for a JS predicate ``(arg) => bool`` evaluated in the page."""
        return self._wait_js(js_predicate, arg, timeout, what or js_predicate)

    def execute(self, code: str, timeout: float = 60.0) -> str:
        """Run ``code`` in the notebook's kernel (not as a cell) and return what it printed.

        Goes through the kernel connection of the notebook's session, so it sees the
        notebook's variables, and widget messages it causes reach the views on the page.
        """
        result = self.page.evaluate(
            "async ([path, code, ms]) => {" + _FIND_PANEL + "const p = findPanel(path);"
            " const kernel = p?.sessionContext?.session?.kernel;"
            " if (!kernel) return {status: 'no-kernel', out: '', err: 'the notebook has no kernel'};"
            " const future = kernel.requestExecute({code, silent: false, store_history: false,"
            "                                      stop_on_error: true});"
            " let out = '', err = '';"
            " future.onIOPub = (msg) => { const t = msg.header.msg_type, c = msg.content;"
            "   if (t === 'stream') out += c.text;"
            "   else if (t === 'execute_result') out += (c.data['text/plain'] || '') + '\\n';"
            "   else if (t === 'error') err += c.ename + ': ' + c.evalue + '\\n' + (c.traceback || []).join('\\n'); };"
            " const timer = new Promise((res) => setTimeout(() => res('timeout'), ms));"
            " const reply = await Promise.race([future.done, timer]);"
            " if (reply === 'timeout') return {status: 'timeout', out, err};"
            " return {status: reply.content.status, out, err}; }",
            [self.path, code, int(timeout * 1000)],
        )  # fmt: skip
        if result["status"] != "ok":
            detail = _ANSI.sub("", result["err"]) or result["status"]
            error = self.fail(f"kernel code failed ({result['status']}):\n{code}", detail)
            raise KernelError(str(error))
        return str(result["out"])

    def save(self, timeout: float = 30.0) -> dict[str, Any]:
        """Save the notebook from the browser (with widget state when that setting is on) and
        return the file as written on disk."""
        self.page.evaluate(
            "async (path) => {" + _FIND_PANEL + "const p = findPanel(path);"
            " window.jupyterapp.shell.activateById(p.id);"
            " await p.context.save(); }",
            self.path,
        )  # fmt: skip
        self.wait_until(
            "(path) => {" + _FIND_PANEL + "const p = findPanel(path); return p && !p.model.dirty; }",
            self.path, timeout, "the notebook to be saved",
        )  # fmt: skip
        return dict(json.loads((self.lab.server.notebooks / self.path).read_text()))

    def shutdown_kernel(self) -> None:
        self.page.evaluate(
            "async (path) => {" + _FIND_PANEL + "const p = findPanel(path);"
            " if (p && p.sessionContext.session) await p.sessionContext.shutdown(); }",
            self.path,
        )  # fmt: skip

    def screenshot(self, name: str, selector: str | None = None) -> Path:
        """Save a PNG of the page (or of one element) into the screenshot folder."""
        path = self.lab.screenshots / f"{name}.png"
        if selector is None:
            self.page.screenshot(path=str(path), full_page=False)
        else:
            self.page.locator(selector).first.screenshot(path=str(path))
        return path

    def close(self, shutdown_kernel: bool = True) -> None:
        if shutdown_kernel:
            with contextlib.suppress(Exception):
                self.shutdown_kernel()
        with contextlib.suppress(Exception):
            self.context.close()


class Lab:
    """A JupyterLab server plus one headless Chromium, shared by a test session."""

    def __init__(
        self,
        root: Path,
        screenshots: Path,
        settings: dict[str, dict[str, Any]] | None = None,
        browser: Any = None,
    ) -> None:
        self.server = LabServer(root, settings)
        self.screenshots = screenshots
        self._counter = itertools.count(1)
        self._playwright: Any = None
        self._own_browser = browser is None  # a browser given by the caller is theirs to close
        self.browser: Any = browser

    @property
    def notebooks(self) -> Path:
        return self.server.notebooks

    def start(self) -> Lab:
        chromium = os.environ.get("MTW_CHROMIUM", "/usr/bin/chromium")
        if not Path(chromium).exists():
            raise LabError(
                f"no Chromium at {chromium}: install Debian's (apt-get install -y chromium) or point "
                "MTW_CHROMIUM at a Chromium binary; Playwright's own browser download does not work offline"
            )
        self.screenshots.mkdir(parents=True, exist_ok=True)
        self.server.start()
        if not self._own_browser:
            return self
        from playwright.sync_api import sync_playwright

        try:
            self._playwright = sync_playwright().start()
            self.browser = self._playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        except Exception:
            self.stop()
            raise
        return self

    def write_notebook(self, cells: Sequence[str], name: str | None = None) -> str:
        """Write a notebook into the server's root; returns its path relative to the root."""
        name = name or f"nb{next(self._counter)}.ipynb"
        write_notebook(self.notebooks / name, cells)
        return name

    def open(self, path: str, *, width: int = 1280, height: int = 900, wait: bool = True) -> NotebookPage:
        """Open ``path`` in a fresh browser context and (by default) wait for its idle kernel.

        Each page gets a workspace of its own, reset on load, so JupyterLab does not reopen
        the notebooks of earlier tests (and start their kernels again).
        """
        context = self.browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        nb = NotebookPage(self, path, page, context)
        workspace = f"t{next(self._counter)}"
        url = f"{self.server.url}/lab/workspaces/{workspace}/tree/{urllib.parse.quote(path)}?reset"
        page.goto(url, timeout=OPEN_TIMEOUT_S * 1000)
        if wait:
            nb.wait_ready()
        return nb

    def stop(self) -> list[int]:
        """Close the browser and shut the server down; the pids that had to be killed."""
        if self.browser is not None and self._own_browser:
            with contextlib.suppress(Exception):
                self.browser.close()
            self.browser = None
        if self._playwright is not None:
            with contextlib.suppress(Exception):
                self._playwright.stop()
            self._playwright = None
        return self.server.stop()


@contextlib.contextmanager
def running_lab(root: Path | None = None, screenshots: Path | None = None) -> Iterator[Lab]:
    """A started :class:`Lab` for scripts (the benchmark); the temp folder is removed after."""
    owned = root is None
    root = root or Path(tempfile.mkdtemp(prefix="mtw-lab-"))
    env_shots = os.environ.get("MTW_SCREENSHOTS")
    shots = screenshots or (Path(env_shots) if env_shots else root / "screenshots")
    lab = Lab(root, shots)
    try:
        yield lab.start()
    finally:
        lab.stop()
        if owned:
            shutil.rmtree(root, ignore_errors=True)


# WCAG contrast of an element's text against what is really behind it: translucent
# backgrounds (the label tints) are composited over the first opaque one, innermost last.
CONTRAST = """
(sel) => {
  const parse = (c) => {
    const v = (c.match(/[\\d.]+/g) || []).map(Number);
    if (c.startsWith("color(srgb")) return [v[0] * 255, v[1] * 255, v[2] * 255, v.length > 3 ? v[3] : 1];
    return v.length === 3 ? [...v, 1] : v;
  };
  const el = document.querySelector(sel);
  const layers = [];
  for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
    const c = parse(getComputedStyle(node).backgroundColor);
    if (c.length === 4 && c[3] > 0) layers.push(c);
    if (c.length === 4 && c[3] > 0.99) break;
  }
  let bg = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const fg = parse(getComputedStyle(el).color);
  const text = [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const lum = (rgb) => rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(text), lum(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
"""


def assert_legible_in_both_themes(nb: NotebookPage, selectors: Sequence[str], shot: str, root: str) -> None:
    """Switch JupyterLab to the dark then the light theme and check every selector's text
    contrast reaches WCAG AA (4.5:1); screenshots ``<shot>_dark`` and ``<shot>_light``.
    The theme is a user setting of the shared server: it is left light afterwards."""
    try:
        for theme, light in (("JupyterLab Dark", "false"), ("JupyterLab Light", "true")):
            nb.page.evaluate(
                "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", theme
            )
            nb.wait_until(f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=30, what=theme)
            nb.page.wait_for_timeout(500)  # the theme's stylesheet applies after the flag flips
            ratios = {sel: round(float(nb.page.evaluate(CONTRAST, sel)), 2) for sel in selectors}
            low = {sel: r for sel, r in ratios.items() if r < 4.5}
            assert not low, f"{theme}: contrast below 4.5:1 for {low} (all: {ratios})"
            nb.screenshot(f"{shot}_{'light' if light == 'true' else 'dark'}", root)
    finally:
        nb.page.evaluate(
            "() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})"
        )
