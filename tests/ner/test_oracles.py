"""The TIN oracles MR1 and MR2 on hand-made groups and predictions."""

from __future__ import annotations

from typing import Any

import pytest

from mtwidgets.core.predictions import Prediction
from mtwidgets.core.relation import Group
from mtwidgets.core.spans import Span
from mtwidgets.ner.inputs import NERInput
from mtwidgets.ner.oracles import SameEntityLabels, SamePredictionsUnderPermutation


def at(text: str, mention: str, label: str) -> Span:
    i = text.index(mention)
    return Span(i, i + len(mention), label)


def pred(text: str, *ents: tuple[str, str]) -> Prediction:
    return Prediction(spans=tuple(sorted(at(text, m, lab) for m, lab in ents)))


def fu_of(g: Group) -> str:
    x = g.followups[0]
    assert isinstance(x, NERInput)
    return x.text


def replaced_group(src: str, old: str, new: str, relation: str = "TIN-token") -> Group:
    a = src.index(old)
    b = a + len(old)
    fu = src[:a] + new + src[b:]
    d = len(new) - len(old)
    meta = {"alignment": [[0, a, 0, a], [b, len(src), b + d, len(fu)]]}
    return Group(relation, 0, (NERInput(src),), (NERInput(fu),), f"{old} -> {new}", 0, 0, meta)


SRC = "Norrie believes securing Unesco status could offer new opportunities in Shetland."


def test_mr1_passes_when_every_shared_entity_keeps_its_label() -> None:
    g = replaced_group(SRC, "offer", "bring")
    fu = fu_of(g)
    check = SameEntityLabels().check(
        g,
        [pred(SRC, ("Norrie", "PERSON"), ("Unesco", "ORG"))],
        [pred(fu, ("Norrie", "PERSON"), ("Unesco", "ORG"))],
    )
    assert check.verdict == "pass"


def test_mr1_violation_names_the_entity_and_both_labels() -> None:
    g = replaced_group(SRC, "offer", "bring")
    fu = fu_of(g)
    check = SameEntityLabels().check(
        g,
        [pred(SRC, ("Norrie", "PERSON"), ("Unesco", "ORG"), ("Shetland", "GPE"))],
        [pred(fu, ("Norrie", "PERSON"), ("Unesco", "MISC"))],
    )
    assert check.verdict == "violation"
    assert "'Unesco': ORG in the source, MISC in the follow-up" in check.reason
    assert "'Shetland': GPE in the source, no entity in the follow-up" in check.reason
    assert check.reason.startswith("2 suspicious")


def test_mr1_ignores_a_new_entity_created_by_the_edit() -> None:
    g = replaced_group(SRC, "new", "British")
    fu = fu_of(g)
    check = SameEntityLabels().check(
        g, [pred(SRC, ("Norrie", "PERSON"))], [pred(fu, ("Norrie", "PERSON"), ("British", "NORP"))]
    )
    assert check.verdict == "pass"


def test_mr1_coarse_granularity_accepts_gpe_for_loc() -> None:
    g = replaced_group(SRC, "offer", "bring")
    fu = fu_of(g)
    outs = ([pred(SRC, ("Shetland", "GPE"))], [pred(fu, ("Shetland", "LOC"))])
    assert SameEntityLabels().check(g, *outs).verdict == "violation"
    assert SameEntityLabels("coarse").check(g, *outs).verdict == "pass"
    with pytest.raises(ValueError, match="granularity"):
        SameEntityLabels("medium")  # type: ignore[arg-type]


SHUF_SRC = "Spotify and Deezer praised Drake and Adele."
SHUF_FU = "Deezer and Spotify praised Adele and Drake."


def shuffle_group() -> Group:
    perm: list[list[Any]] = [
        [0, 7, 11, 18, "ORG"],
        [12, 18, 0, 6, "ORG"],
        [27, 32, 37, 42, "PERSON"],
        [37, 42, 27, 32, "PERSON"],
    ]
    for s0, s1, f0, f1, _ in perm:
        assert SHUF_SRC[int(s0) : int(s1)] == SHUF_FU[int(f0) : int(f1)]
    meta = {
        "alignment": [[7, 12, 7, 12], [18, 27, 18, 27], [32, 37, 32, 37], [42, 43, 42, 43]],
        "permutation": perm,
    }
    return Group("TIN-shuffle", 0, (NERInput(SHUF_SRC),), (NERInput(SHUF_FU),), "shuffle", 0, 0, meta)


ALL = (("Spotify", "ORG"), ("Deezer", "ORG"), ("Drake", "PERSON"), ("Adele", "PERSON"))


def test_mr2_applies_only_when_the_model_predicted_the_moved_entities_with_their_categories() -> None:
    g, mr2 = shuffle_group(), SamePredictionsUnderPermutation()
    assert mr2.applies(g, [pred(SHUF_SRC, *ALL)]) is None
    why = mr2.applies(g, [pred(SHUF_SRC, *ALL[:3])])
    assert why is not None and "'Adele'" in why and "PERSON" in why
    why = mr2.applies(g, [pred(SHUF_SRC, *ALL[:3], ("Adele", "ORG"))])
    assert why is not None and "predicted 'Adele' as ORG" in why


def test_mr2_follows_the_permutation() -> None:
    g, mr2 = shuffle_group(), SamePredictionsUnderPermutation()
    same = mr2.check(g, [pred(SHUF_SRC, *ALL)], [pred(SHUF_FU, *ALL)])
    assert same.verdict == "pass"
    changed = mr2.check(
        g,
        [pred(SHUF_SRC, *ALL)],
        [pred(SHUF_FU, ("Spotify", "ORG"), ("Deezer", "ORG"), ("Drake", "ORG"), ("Adele", "PERSON"))],
    )
    assert changed.verdict == "violation"
    assert "'Drake': PERSON in the source, ORG in the follow-up" in changed.reason


def test_mr2_on_a_question_pairs_an_entity_whose_case_changed_and_flags_an_extra_entity() -> None:
    src, fu = "The Guardian reported the leak in Paris.", "Did the Guardian report the leak in Paris?"
    meta = {"alignment": [[3, 12, 7, 16], [21, 39, 23, 41]]}
    g = Group("TIN-question", 0, (NERInput(src),), (NERInput(fu),), "question", 0, 0, meta)
    mr2 = SamePredictionsUnderPermutation()
    s_pred = pred(src, ("The Guardian", "ORG"), ("Paris", "GPE"))
    ok = mr2.check(g, [s_pred], [Prediction(spans=(Span(4, 16, "ORG"), at(fu, "Paris", "GPE")))])
    assert ok.verdict == "pass"
    bad = mr2.check(
        g, [s_pred], [Prediction(spans=(Span(4, 16, "ORG"), at(fu, "leak", "EVENT"), at(fu, "Paris", "GPE")))]
    )
    assert (
        bad.verdict == "violation" and "'leak': no entity in the source, EVENT in the follow-up" in bad.reason
    )
