"""A toy task written outside mtwidgets: shout detection.

Is a message shouting (mostly capital letters)? One relation (SHOUT-spacing: doubling the
spaces between words must not change the answer), one embedded model, the generic
single-text Explorer part, and a report section. It is registered either with
``mt.register_task(TASK)`` or through the ``mtwidgets.tasks`` entry point group, and works
in ``mt.run``, the CLI, the Explorer, the Batch panel and the report without any edit under
mtwidgets/ or js/.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from mtwidgets.core.errors import InputError
from mtwidgets.core.inputs import TextInput
from mtwidgets.core.model import CallableModel
from mtwidgets.core.properties import SameLabel
from mtwidgets.core.relation import Draft, MetamorphicRelation, Transformation
from mtwidgets.core.task import ColumnMode, EmbeddedModel, Field, Task


@dataclass(frozen=True)
class ShoutInput(TextInput):
    """One message."""

    task: ClassVar[str] = "shout"


def from_row(row: Any) -> ShoutInput:
    text = row.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InputError("the row has no 'text' to test")
    return ShoutInput(text)


class DoubleSpaces(Transformation):
    """Every single space between two words becomes two."""

    requirement = "at least two words"

    def _options(self, sources: tuple[Any, ...]) -> list[list[Any]]:
        return [["double"]] if " " in sources[0].text.strip() else []

    def _build(self, sources: tuple[Any, ...], option: Any) -> Draft:
        text = sources[0].text
        return Draft(sources, (ShoutInput(text.replace(" ", "  ")),), "spaces doubled")


def build_relation(name: str, **options: Any) -> MetamorphicRelation:
    if name != "SHOUT-spacing":
        raise KeyError(name)
    return MetamorphicRelation(
        name, task="shout", category="formatting", expected="identical",
        description="Double the spaces between words; shouting does not depend on spacing.",
        paper="the mtwidgets test suite", transformation=DoubleSpaces(), property=SameLabel(),
    )


def caps_ratio(x: ShoutInput) -> str:
    """A deliberately naive detector: capitals over all characters, spaces included, so a
    message near the threshold stops shouting when its spaces are doubled."""
    text = x.text
    upper = sum(c.isupper() for c in text)
    return "shout" if upper / max(len(text), 1) > 0.6 else "calm"


def caps_model() -> CallableModel:
    return CallableModel(caps_ratio, name="shout-caps", kind="label")


def sample() -> list[ShoutInput]:
    return [ShoutInput(t) for t in SAMPLE]


SAMPLE = (
    "STOP RIGHT THERE",
    "I AM SO ANGRY NOW",
    "please pass the salt",
    "WHY WOULD YOU DO THAT",
    "See you at NOON tomorrow",
    "GO GO GO",
    "the meeting moved to three",
    "NO WAY",
)


def report_sections(results: Any, context: Any = None) -> list[str]:
    n = int((results.frame["verdict"] == "violation").sum()) if len(results.frame) else 0
    return [f'<section class="shout-section"><h2>Shouting</h2><p>{escape(str(n))} spacing violations.</p></section>']


def explorer_parts() -> Any:
    from mtwidgets.core.views import TextParts

    return TextParts(prediction_view="label-scores")


TASK = Task(
    name="shout",
    title="Shout detection",
    input_type=ShoutInput,
    prediction="label",
    relations=("SHOUT-spacing",),
    build_relation=build_relation,
    models=(EmbeddedModel("shout-caps", "shout", caps_model, "Capital letters over all characters > 0.6."),),
    from_row=from_row,
    from_text=ShoutInput,
    column_modes=(ColumnMode("message", "one message per row", (Field("text", "the message"),)),),
    detect=lambda columns: "shouting" in columns,
    sample=sample,
    explorer=explorer_parts,
    report=report_sections,
    description="Is a message shouting?",
)
