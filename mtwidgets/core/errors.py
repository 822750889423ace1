"""Errors a user can act on.

Every error names the bad value, says what was expected and how to fix it, so that the
CLI, the notebook and (later) the widgets can show the message as it is.
"""

from __future__ import annotations


class MTError(Exception):
    """Base class of every error mtwidgets raises on purpose."""


class InputError(MTError, ValueError):
    """An input (text, span, markup, data row) is malformed."""


class RelationError(MTError, KeyError):
    """An unknown metamorphic relation was asked for."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ModelError(MTError, RuntimeError):
    """A model raised, or returned something that is not one prediction per input.

    Attributes
    ----------
    model:
        The name the model was registered under in ``mt.run(models={...})``.
    input:
        The input the model failed on (``None`` when the whole batch had the wrong shape).
    partial:
        The results computed before the failure, when the runner was asked to raise.
    """

    def __init__(self, message: str, *, model: str, input: object = None) -> None:
        super().__init__(message)
        self.model = model
        self.input = input
        self.partial: object = None
