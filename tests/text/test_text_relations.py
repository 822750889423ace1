"""The 21 relations: names and categories as in the paper, their follow-ups and oracles."""

from __future__ import annotations

import pytest

import mtwidgets as mt
from mtwidgets.core.predictions import Prediction
from mtwidgets.core.registry import names, relation
from mtwidgets.text import relations as R
from mtwidgets.text.inputs import ClassificationInput, SimilarityInput, SummarizationInput


def test_the_catalogue_lists_seven_relations_per_task_with_the_papers_categories() -> None:
    assert names("similarity") == [f"MR{i}.1" for i in range(1, 8)]
    assert names("summarization") == [f"MR{i}.2" for i in range(1, 8)]
    # the classification catalogue also holds the systematicity paper's pairwise relation
    assert names("classification") == [*(f"MR{i}.3" for i in range(1, 8)), "pairwise-systematicity"]
    cats = {n: relation(n).category for n in names("classification")}
    assert cats == {"MR1.3": "MRPpbs", "MR2.3": "MRPpbs", "MR3.3": "MRPpbs", "MR4.3": "MRPpbs",
                    "MR5.3": "MRPsbs", "MR6.3": "MRPsbs", "MR7.3": "MRPr",
                    "pairwise-systematicity": "pairwise systematicity"}
    r = relation("MR7.1")
    assert r.task == "similarity" and "Mathematics" in r.paper and "S2" in r.description
    with pytest.raises(KeyError):
        R.build("MR8.1")


def test_classification_follow_up_keeps_topic_and_language_and_checks_the_label() -> None:
    x = ClassificationInput("Pierre Lefebvre, a teacher from France, won the prize on Monday.", topic="education")
    group = relation("MR1.3").generate(x, seed=1)[0]
    f = group.followups[0]
    assert f.topic == "education" and f.lang == "en" and "Pierre Lefebvre" not in f.text
    assert group.meta["replacements"][0][2] == "Pierre Lefebvre"
    check = relation("MR1.3").check(group, [Prediction(label="education")], [Prediction(label="business")])
    assert check.verdict == "violation"


def test_not_applicable_says_why() -> None:
    group = relation("MR2.3").generate(ClassificationInput("The weather was fine today."), seed=0)[0]
    assert group.not_applicable is not None and "no country named" in group.not_applicable


def test_similarity_replaces_in_both_texts_where_the_word_occurs() -> None:
    x = SimilarityInput("Pierre Lefebvre bought a car in France.", "Pierre Lefebvre sold his car in France.", score=0.5)
    g = relation("MR1.1").generate(x, seed=2)[0]
    fa, fb = g.followups[0].text_a, g.followups[0].text_b
    new = fa.split(" bought")[0]
    assert fb == f"{new} sold his car in France." and "Lefebvre" not in fa + fb
    # A country is replaced only where it is the text's one geographic fact: no person here.
    y = SimilarityInput("Greece's tourism recovered strongly this year.", "Greece's tourism had a strong year.", score=0.5)
    g = relation("MR2.1").generate(y, seed=2)[0]
    fa, fb = g.followups[0].text_a, g.followups[0].text_b
    new = g.meta["new"]
    assert "Greece" not in fa + fb
    assert (fa, fb) == (f"{new}'s tourism recovered strongly this year.", f"{new}'s tourism had a strong year.")
    g = relation("MR4.1").generate(y, seed=2)[0]
    assert (g.followups[0].text_a, g.followups[0].text_b) == (
        "Greece\u2019s tourism recovered strongly this year.", "Greece\u2019s tourism had a strong year.")
    g = relation("MR7.1").generate(x, seed=2)[0]
    assert (g.followups[0].text_a, g.followups[0].text_b) == (x.text_b, x.text_a)


def test_similarity_oracle_compares_the_papers_intervals() -> None:
    x = SimilarityInput("A cat sat.", "A dog sat.")
    g = relation("MR7.1").generate(x)[0]
    prop = relation("MR7.1").property
    assert prop.check(g, [Prediction(value=0.72)], [Prediction(value=0.61)]).verdict == "pass"
    check = prop.check(g, [Prediction(value=0.8)], [Prediction(value=0.79)])
    assert check.verdict == "violation" and "[0.8, 1.0] perfect" in check.reason and "[0.6, 0.8)" in check.reason
    assert prop.check(g, [Prediction(value=1.3)], [Prediction(value=0.95)]).verdict == "pass"
    assert R.interval(0.0)[2] == "zero correlation" and R.interval(0.2)[2] == "weak correlation"


def test_summarization_oracle_applies_the_replacement_to_the_source_summary() -> None:
    x = SummarizationInput("Pierre Lefebvre won the race in France. Fans cheered loudly. Lefebvre thanked his coach.")
    g = relation("MR1.2").generate(x, seed=0)[0]
    new_first, new_last = g.meta["new"].split()
    src = Prediction(text="Pierre Lefebvre won the race in France.")
    good = Prediction(text=f"{new_first} {new_last} won the race in France.")
    check = relation("MR1.2").check(g, [src], [good])
    assert check.verdict == "pass" and "token F1 1.00" in check.reason
    bad = relation("MR1.2").check(g, [src], [Prediction(text=f"{new_first} {new_last} won.")])
    assert bad.verdict == "violation" and "token F1" in bad.reason and bad.expected == good.text


def test_reordered_summaries_must_be_equal() -> None:
    x = SummarizationInput("Oil prices rose on Monday. In Asia, markets closed lower. In Europe, bond yields rose. "
                           "Analysts expect a volatile week.")
    g = relation("MR7.2").generate(x)[0]
    assert g.followups[0].text != x.text
    prop = relation("MR7.2").property
    assert prop.check(g, [Prediction(text="A. B.")], [Prediction(text="A.  B.")]).verdict == "pass"
    assert prop.check(g, [Prediction(text="A. B.")], [Prediction(text="B. A.")]).verdict == "violation"


def test_a_language_without_rewriters_is_not_applicable_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(R.LANGUAGE_MODULES, "zh", "mtwidgets.text.no_such_module")
    g = relation("MR1.3").generate(ClassificationInput("小明有一个苹果。"))[0]
    assert g.not_applicable is not None and "zh rewriters" in g.not_applicable and "cannot be imported" in g.not_applicable


def test_chinese_rewriters_are_used_for_chinese_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from mtwidgets.text.rewrite import Rewrite, Rewrites

    fake = types.ModuleType("fake_zh")

    def punct(text: str, *, rng: object, k: int = 1) -> Rewrites:
        return Rewrites([Rewrite(text.replace("。", "！"), "。 -> ！")])

    fake.REWRITERS = {"punctuation": punct}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_zh", fake)
    monkeypatch.setitem(R.LANGUAGE_MODULES, "zh", "fake_zh")
    g = relation("MR4.3").generate(ClassificationInput("小明有一个苹果。"))[0]
    assert g.followups[0].text == "小明有一个苹果！"
    g = relation("MR1.3").generate(ClassificationInput("小明有一个苹果。"))[0]
    assert "no 'name' family" in str(g.not_applicable)


def test_every_relation_runs_on_a_model(synonyms: dict) -> None:
    # A person ties the country to the text, so the country (MR2.3) comes from a second text.
    texts = [ClassificationInput("Pierre Lefebvre, an accountant from France, bought a car. The company announced a deal. "
                                 "Analysts praised the plan.", topic="business"),
             ClassificationInput("Lawmakers in Spain passed the bill on Monday. The company's deal was announced. "
                                 "Analysts praised the plan.", topic="business"),
             ClassificationInput("Oil prices rose on Monday. In Asia, markets closed lower. In Europe, bond yields "
                                 "rose. Analysts expect a volatile week.", topic="business")]
    results = mt.run(texts, relations="all", models={"const": lambda x: "business"}, task="classification")
    summary = results.summary()
    counted = dict(zip(summary["relation"], summary["groups"]))
    assert all(counted[f"MR{i}.3"] >= 1 for i in range(1, 8)), counted
    # Each text leaves some relations not applicable; everything that ran passes on a constant model.
    verdicts = results.frame["verdict"]
    assert set(verdicts) == {"pass", "not_applicable"} and (verdicts == "pass").sum() >= 7


def test_a_pair_is_rewritten_as_one_text_so_both_texts_count() -> None:
    refused = relation("MR2.1").generate(SimilarityInput("Spain won the final.", "The Spanish guard scored 28 points."))[0]
    assert refused.not_applicable is not None and "Spanish" in refused.not_applicable
    g = relation("MR1.1").generate(SimilarityInput("Maria Lopez won on Sunday.", "Lopez thanked her coach."))[0]
    fa, fb = g.followups[0].text_a, g.followups[0].text_b
    assert "Lopez" not in fa + fb and fb.split()[0] == fa.split()[1]
    assert g.meta["replacements_b"][0][:3] == [0, 5, "Lopez"]


def test_the_replaced_summary_cases_an_article_for_where_it_lands() -> None:
    from mtwidgets.text.rewrite import Replacement, transfer

    source = "Canada won the final on Sunday. Fans in Canada cheered all night."
    reps = [Replacement(0, 6, "Canada", "The United States"), Replacement(40, 46, "Canada", "the United States")]
    summary = "Fans in Canada cheered after Canada won the final on Sunday."
    assert transfer(source, summary, reps) == ("Fans in the United States cheered after the United States won the final "
                                               "on Sunday.")
