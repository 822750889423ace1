"""The harness itself, proven on a tiny anywidget counter defined in the notebook.

If this fails, the browser tests of the real widgets would fail for reasons that have
nothing to do with them; this pins down the lab, the browser, the widget manager and the
kernel round trip first.
"""

from __future__ import annotations

import time

import pytest
from lab import KernelError, Lab, LabError

COUNTER = '''
import anywidget, traitlets

class Counter(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const button = document.createElement("button");
      button.className = "smoke-counter";
      const draw = () => { button.textContent = `count is ${model.get("value")}`; };
      const onClick = () => { model.set("value", model.get("value") + 1); model.save_changes(); };
      button.addEventListener("click", onClick);
      model.on("change:value", draw);
      draw();
      el.appendChild(button);
      return () => { model.off("change:value", draw); button.removeEventListener("click", onClick); };
    }
    export default { render };
    """
    value = traitlets.Int(0).tag(sync=True)

counter = Counter()
counter
'''


def test_counter_clicks_reach_the_kernel_and_kernel_changes_reach_the_view(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook([COUNTER]))
    try:
        nb.run_all()
        button = nb.wait_for("button.smoke-counter")
        assert button.text_content() == "count is 0"
        for _ in range(3):
            button.click()
        nb.wait_until("() => document.querySelector('button.smoke-counter').textContent === 'count is 3'",
                      what="the counter to show 3")  # fmt: skip
        # ipywidgets holds back an update while an earlier one is unacknowledged, so the
        # kernel may get the last click after this request: poll briefly for the final value.
        deadline, value = time.monotonic() + 15, ""
        while time.monotonic() < deadline:
            value = nb.execute("print(counter.value)").strip()
            if value == "3":
                break
            time.sleep(0.1)
        assert value == "3"
        # And the other direction: a kernel-side change re-renders the view.
        nb.execute("counter.value = 41")
        nb.wait_until("() => document.querySelector('button.smoke-counter').textContent === 'count is 41'",
                      what="the counter to show 41")  # fmt: skip
        nb.screenshot("smoke_counter", "button.smoke-counter")
        assert nb.dialogs == []
    finally:
        nb.close()


def test_kernel_errors_come_back_with_their_traceback(lab: Lab) -> None:
    nb = lab.open(lab.write_notebook(["x = 1"]))
    try:
        nb.run_all()
        assert nb.execute("print(x + 1)").strip() == "2"
        with pytest.raises(KernelError, match="ZeroDivisionError"):
            nb.execute("1 / 0")
        # A harness timeout names what it waited for and carries the server log.
        with pytest.raises(LabError, match=r"(?s)'\.no-such-thing'.*--- server log ---.*ServerApp"):
            nb.wait_for(".no-such-thing", timeout=1)
    finally:
        nb.close()


def test_saved_widget_state_renders_the_view_after_reopening(lab: Lab) -> None:
    """JupyterLab 4 stores widget state on save only with the widget manager's ``saveState``
    setting (the harness turns it on); a reopened notebook then renders the view from the
    saved state with a fresh kernel that never ran the cell."""
    path = lab.write_notebook([COUNTER])
    nb = lab.open(path)
    try:
        nb.run_all()
        button = nb.wait_for("button.smoke-counter")
        button.click()
        button.click()
        nb.wait_until("() => document.querySelector('button.smoke-counter').textContent === 'count is 2'",
                      what="the counter to show 2")  # fmt: skip
        saved = nb.save()
    finally:
        nb.close()  # shuts the kernel down: nothing kernel-side survives
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    counters = [m for m in state.values() if m["state"].get("value") == 2 and "_esm" in m["state"]]
    assert len(counters) == 1, f"expected the counter's model in the saved state, got {list(state)}"

    reopened = lab.open(path)
    try:
        button = reopened.wait_for("button.smoke-counter")
        assert button.text_content() == "count is 2"
        # The cell was not re-run: the fresh kernel has no `counter`.
        assert reopened.execute("print('counter' in globals())").strip() == "False"
    finally:
        reopened.close()
