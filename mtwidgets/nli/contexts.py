"""Contexts C(ℓ) for pairwise compositionality (section 5 of the systematicity paper).

A context is a sentence with one slot for an insertion word. It is *upward monotone* when
it preserves the insertion's relation (a hyponym in, the hypernym out: "There is a dog in
the garden." entails "There is an animal in the garden.") and *downward monotone* when it
inverts it ("There was no animal." entails "There was no dog."). Composed with an insertion
pair (ℓa, ℓb) into the NLI input (C(ℓa), C(ℓb)), only Up(⊆) and Down(⊇) are entailed.

Templates are written with ``{x}`` (the singular, after "a"/"an" when the template says
``a {x}``: the article follows the word) or ``{xs}`` (the plural). Every context names the
insertion domains it reads naturally with (:mod:`mtwidgets.nli.lexicon`): "Some {xs} bloom
in spring" takes plants only, "There was no {x}." any clear word. Contexts that take
several domains take only *clear* words (whose domain sense is their usual one).

:data:`PAPER_CONTEXTS` are the examples of the paper's Table 3; :data:`PROJECT_CONTEXTS`
were written for this project. Some project contexts carry their negation (``negated``), the
material the embedded model learns contradiction from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..core.errors import InputError
from ..core.inputs import check_unicode
from ..lang.inflect import indefinite_article
from .lexicon import DOMAIN_ROOTS, Word

Monotonicity = Literal["up", "down"]
MONOTONICITIES: tuple[str, ...] = ("up", "down")
SLOTS = ("{x}", "{xs}")
_ARTICLE = re.compile(r"\b([Aa]n?) $")


def check_template(text: str, what: str = "context template") -> str:
    """``text`` if it holds exactly one slot, ``{x}`` (singular) or ``{xs}`` (plural), else
    an :class:`~mtwidgets.core.errors.InputError`."""
    if not isinstance(text, str):
        raise InputError(f"a {what} must be a string, got {type(text).__name__}: {text!r}")
    check_unicode(text, what)
    if sum(text.count(s) for s in SLOTS) != 1:
        raise InputError(f"{what} {text!r} needs exactly one slot, {{x}} (singular) or {{xs}} (plural)")
    return text


def is_plural(template: str) -> bool:
    """Whether the slot of ``template`` takes the plural (``{xs}``)."""
    return "{xs}" in template


def display_template(template: str) -> str:
    """The template as the paper prints it: ``There was no ⟨x⟩.`` (an article before the
    slot is written "a", whichever the word takes)."""
    return re.sub(r"\b[Aa]n? \{x\}", lambda m: m.group(0)[0] + " ⟨x⟩", template).replace(
        "{x}", "⟨x⟩").replace("{xs}", "⟨x⟩")


def needs_article(template: str) -> bool:
    """Whether the singular slot of ``template`` follows "a"/"an"."""
    return not is_plural(template) and bool(_ARTICLE.search(template.split("{x}")[0]))


def fill(template: str, form: str) -> tuple[str, tuple[int, int]]:
    """``template`` with ``form`` in its slot (the article before a singular slot chosen
    for ``form``: "a dog", "an animal") and the character span of ``form`` in the result."""
    slot = "{xs}" if is_plural(template) else "{x}"
    before, after = template.split(slot)
    m = _ARTICLE.search(before)
    if m and slot == "{x}":
        article = indefinite_article(form)
        article = article.capitalize() if m.group(1)[0].isupper() else article
        before = before[: m.start(1)] + article + " "
    return before + form + after, (len(before), len(before) + len(form))


def locate(template: str, text: str) -> tuple[str, tuple[int, int]] | None:
    """The word in the slot of ``template`` within ``text`` (a sentence :func:`fill` could
    have written: any article "a"/"an" before a singular slot) and its span, or ``None``
    when ``text`` is not ``template`` with a word in its slot."""
    slot = "{xs}" if is_plural(template) else "{x}"
    before, after = template.split(slot)
    m = _ARTICLE.search(before)
    head = re.escape(before)
    if m and slot == "{x}":
        head = re.escape(before[: m.start(1)]) + ("[Aa]n? " if m.group(1)[0].isupper() else "an? ")
    found = re.fullmatch(f"{head}(.+?){re.escape(after)}", text, flags=re.DOTALL)
    if found is None or not found.group(1).strip():
        return None
    return found.group(1), found.span(1)


@dataclass(frozen=True)
class Context:
    """A sentence with one insertion slot, its monotonicity and the domains it takes.

    Raises :class:`~mtwidgets.core.errors.InputError` for a template without exactly one
    slot, an unknown monotonicity or domain.
    """

    template: str
    monotonicity: Monotonicity
    domains: tuple[str, ...]
    source: str = "project"
    negated: str | None = None

    def __post_init__(self) -> None:
        for text in (self.template, self.negated):
            if text is not None:
                check_template(text)
        if self.monotonicity not in MONOTONICITIES:
            raise InputError(f"monotonicity must be 'up' or 'down', got {self.monotonicity!r}")
        if not self.domains:
            raise InputError(f"context {self.template!r} names no insertion domain")
        for d in self.domains:
            if d not in DOMAIN_ROOTS:
                raise InputError(f"context {self.template!r}: unknown domain {d!r}; known: {', '.join(DOMAIN_ROOTS)}")

    @property
    def plural(self) -> bool:
        return is_plural(self.template)

    @property
    def needs_article(self) -> bool:
        return needs_article(self.template)

    @property
    def display(self) -> str:
        """The template as the paper prints it: ``There was no ⟨x⟩.``"""
        return display_template(self.template)

    def accepts(self, w: Word) -> bool:
        """Whether ``w`` reads naturally in this context: its domain is one the context
        takes, it is clear when the context takes several domains, and it counts when the
        slot needs an article or a plural."""
        if w.domain not in self.domains or (len(self.domains) > 1 and not w.clear):
            return False
        return w.count or not (self.plural or self.needs_article)

    def render(self, w: Word, *, negated: bool = False) -> tuple[str, tuple[int, int]]:
        """The sentence with ``w`` in the slot and the character span of ``w`` in it."""
        template = self.negated if negated else self.template
        if template is None:
            raise InputError(f"context {self.template!r} has no negated form")
        return fill(template, w.plural if is_plural(template) else w.lemma)


def _c(template: str, mono: Monotonicity, domains: str, negated: str | None = None,
       source: str = "project") -> Context:
    return Context(template, mono, tuple(domains.split()), source, negated)


ANY = "animal plant food vehicle person object"

PAPER_CONTEXTS: tuple[Context, ...] = (
    _c("So there is no dedicated {x} for every entity and no distinction between entity mentions and "
       "non-mention words.", "down", "object", source="paper"),
    _c("There was no {x}.", "down", ANY, source="paper"),
    _c("We stood on the brink of a {x}.", "up", "event", source="paper"),
    _c("There are some old houses in this {x}.", "up", "place", source="paper"),
    _c("Some {xs} bloom in spring and others in autumn.", "up", "plant", source="paper"),
)

PROJECT_CONTEXTS: tuple[Context, ...] = (
    # upward monotone
    _c("There is a {x} in the garden.", "up", "animal plant person object",
       negated="There is no {x} in the garden."),
    _c("I saw a {x} near the river.", "up", "animal person vehicle",
       negated="I did not see any {xs} near the river."),
    _c("She bought a {x} yesterday.", "up", "object vehicle food",
       negated="She did not buy any {xs} yesterday."),
    _c("A {x} was standing by the door.", "up", "animal person",
       negated="No {x} was standing by the door."),
    _c("He was bitten by a {x} last summer.", "up", "animal"),
    _c("They ate a {x} for lunch.", "up", "food", negated="They did not eat any {xs} for lunch."),
    _c("My neighbour owns a {x}.", "up", "animal vehicle object", negated="My neighbour does not own a {x}."),
    _c("There were some {xs} on the table.", "up", "food object", negated="There were no {xs} on the table."),
    _c("The children were playing with a {x}.", "up", "animal object"),
    _c("A {x} crossed the road in front of us.", "up", "animal vehicle person"),
    _c("We planted a {x} behind the house.", "up", "plant", negated="We did not plant any {xs} behind the house."),
    _c("The photograph shows a {x}.", "up", ANY, negated="The photograph does not show any {xs}."),
    _c("Somebody left a {x} in the hall.", "up", "object food"),
    _c("She is married to a {x}.", "up", "person"),
    _c("The company hired a {x} last month.", "up", "person", negated="The company did not hire any {xs} last month."),
    _c("The country was hit by a {x} in 1990.", "up", "event"),
    _c("They live in a {x} near the coast.", "up", "place"),
    _c("At least one {x} was found in the cellar.", "up", "animal object food"),
    # downward monotone
    _c("There is no {x} in the garden.", "down", "animal plant person object"),
    _c("I did not see any {xs} near the river.", "down", "animal person vehicle"),
    _c("She has never bought a {x}.", "down", "object vehicle food"),
    _c("Every {x} in the zoo was fed this morning.", "down", "animal"),
    _c("No {x} was allowed inside the building.", "down", "animal person vehicle"),
    _c("He is afraid of every {x}.", "down", "animal"),
    _c("Nobody in the village owns a {x}.", "down", "animal vehicle object"),
    _c("We did not plant any {xs} this year.", "down", "plant"),
    _c("There were no {xs} on the table.", "down", "food object"),
    _c("The country has never been hit by a {x}.", "down", "event"),
    _c("No old houses are left in this {x}.", "down", "place"),
    _c("She refused to eat any {xs}.", "down", "food"),
    _c("Every {x} in the office was questioned by the police.", "down", "person"),
    _c("There was no {x} at the meeting.", "down", "person"),
    _c("Not a single {x} was seen in the area.", "down", "animal vehicle"),
    _c("If you see a {x}, call the police.", "down", "animal person vehicle"),
    _c("The region has not seen a {x} for decades.", "down", "event"),
)

CONTEXTS: tuple[Context, ...] = PAPER_CONTEXTS + PROJECT_CONTEXTS
