"""benchmarks/audit_followups.py on the text tasks (classification, similarity,
summarization): relation names and shortcuts, sources from small text and pair files in
English and Chinese, the lines to judge (pairs shown as ``S1 ||| S2``, Chinese diffs over
jieba words), the draw per relation or per MR family and language, the coverage, and the
judged table per family (numbers checked by hand)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mtwidgets.text.rewrite import FAMILIES

ROOT = Path(__file__).resolve().parents[1]


def _load() -> Any:
    name = "audit_followups"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "audit_followups.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


audit = _load()

EN_TEXTS = [
    {"id": "t1", "topic": "business",
     "text": "Shares rose on Tuesday. Sales in Canada grew faster than expected."},
    {"id": "t2", "topic": "sport", "text": "Anna Berg won the race in Oslo. She thanked her coach."},
    {"id": "t3", "topic": "science", "text": "The telescope was launched in May. It will study distant stars."},
]
EN_PAIRS = [
    {"id": "p1", "text1": "Japan signed a new trade deal.", "text2": "A new trade pact was agreed by Japan.",
     "score": 0.9},
    {"id": "p2", "text1": "The bank kept rates unchanged.", "text2": "The choir won a singing contest.",
     "score": 0.1},
]
ZH_TEXTS = [
    {"text": "在昨晚结束的比赛中，中国队以2比0战胜泰国队。主教练李强赛后表示：「球员们表现很好。」", "topic": "sports"},
    {"text": "日本队以1比3负于澳大利亚队，出线形势变得严峻…不少球迷批评球队表现低迷。", "topic": "sports"},
]
ZH_PAIRS = [{"text1": "据报道，中国队以二比零战胜了泰国队。", "text2": "据报道，中国队二比零击败了泰国队。", "gold": 0.95}]


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _files(tmp_path: Path, lang: str) -> tuple[Path, Path]:
    texts, pairs = (EN_TEXTS, EN_PAIRS) if lang == "en" else (ZH_TEXTS, ZH_PAIRS)
    return _write_jsonl(tmp_path / f"{lang}_texts.jsonl", texts), _write_jsonl(tmp_path / f"{lang}_pairs.jsonl", pairs)


def _sample(tmp_path: Path, lang: str, relations: str, *extra: str, n: int = 5, name: str = "f") -> tuple:
    texts, pairs = _files(tmp_path, lang)
    out = tmp_path / f"followups-{name}.jsonl"
    args = ["sample", "--texts", str(texts), "--pairs", str(pairs), "--lang", lang, "--relations", relations,
            "--n", str(n), "--seed", "0", "--out", str(out), *extra]
    assert audit.main(args) == 0
    coverage = json.loads(audit.coverage_path(out).read_text(encoding="utf-8"))
    return audit.read_jsonl(out), coverage, args


# -- relation names ------------------------------------------------------------------------
def test_text_shortcut_names_the_21_relations_and_all_keeps_sentence_runs_apart() -> None:
    names, lang = audit.resolve_relations("text")
    assert len(names) == 21 and lang is None
    assert {n for n in names} == {f"MR{f}.{t}" for f in range(1, 8) for t in range(1, 4)}
    assert audit.resolve_relations("text:zh") == (names, "zh")
    only_texts, _ = audit.resolve_relations("text", {"classification", "summarization"})
    assert len(only_texts) == 14 and not any(n.endswith(".1") for n in only_texts)
    # 'all' over held-out sentences alone: the NER and RE relations, none of the text tasks'.
    sentence_rels, _ = audit.resolve_relations("all", audit._other_tasks())
    assert "MR-R1" in sentence_rels and "TIN-token" in sentence_rels
    assert not any(n.startswith("MR") and n[2:3].isdigit() for n in sentence_rels)
    assert audit.resolve_relations("MR5.3,MR5.1") == (["MR5.3", "MR5.1"], None)
    with pytest.raises(audit.AuditError, match="unknown relation"):
        audit.resolve_relations("MR8.1")


def test_bad_requests_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts, pairs = _files(tmp_path, "en")
    out = str(tmp_path / "x.jsonl")
    assert audit.main(["sample", "--texts", str(texts), "--relations", "MR1.1", "--out", out]) == 2
    assert "the similarity relations need --pairs" in capsys.readouterr().err
    assert audit.main(["sample", "--texts", str(texts), "--lang", "en", "--relations", "text:zh", "--out", out]) == 2
    assert "--lang en contradicts --relations text:zh" in capsys.readouterr().err
    assert audit.main(["sample", "--relations", "text", "--out", out]) == 2
    assert "no sources" in capsys.readouterr().err
    # English files asked for Chinese: nothing left, said so.
    assert audit.main(["sample", "--texts", str(texts), "--pairs", str(pairs), "--lang", "zh",
                       "--relations", "text", "--out", out]) == 2
    assert "no zh texts or pairs" in capsys.readouterr().err


# -- the lines to judge --------------------------------------------------------------------
def test_sample_per_relation_english(tmp_path: Path) -> None:
    rows, coverage, args = _sample(tmp_path, "en", "MR2.3,MR2.1,MR2.2,MR7.1,MR4.2")
    rels = coverage["relations"]
    assert set(rels) == {"MR2.3/en", "MR2.1/en", "MR2.2/en", "MR7.1/en", "MR4.2/en"}
    assert rels["MR2.3/en"]["sources"] == 3 and rels["MR7.1/en"]["sources"] == 2
    # t1 names Canada as its one geographic fact, p1 Japan; MR7.1 swaps every pair of two texts.
    assert rels["MR2.3/en"]["with_followup"] == 1 and rels["MR2.1/en"]["with_followup"] == 1
    assert rels["MR7.1/en"]["with_followup"] == 2
    assert all(c["family"] in (*FAMILIES, "swap") and c["lang"] == "en" for c in rels.values())
    assert rels["MR7.1/en"]["family"] == "swap" and rels["MR2.1/en"]["family"] == "country"
    for name, c in rels.items():
        assert sum(1 for r in rows if r["unit"] == name) == min(5, c["with_followup"])
        assert c["sources_per_s"] is None or c["sources_per_s"] > 0
    keys = ["relation", "family", "lang", "unit", "source_id", "source_kind", "source", "followup", "diff",
            "expected", "note", "judgement", "reason"]
    assert all(list(r) == keys and r["judgement"] == "" and r["reason"] == "" for r in rows)
    cls = next(r for r in rows if r["relation"] == "MR2.3")
    assert cls["source_id"] == "t1" and cls["family"] == "country" and "Canada" in cls["diff"]
    assert cls["diff"].startswith("… . Sales in [-Canada-]{+")
    assert cls["expected"] == "the same label (Ls = Lf); gold topic business"
    summ = next(r for r in rows if r["relation"] == "MR2.2")
    assert summ["expected"].startswith("sum(Tf) = Replace_{X1->X2}(sum(Ts)); replace 'Canada' -> '")
    swap = [r for r in rows if r["relation"] == "MR7.1"]
    assert {r["source_id"] for r in swap} == {"p1", "p2"}
    p1 = next(r for r in swap if r["source_id"] == "p1")
    assert p1["source"] == "Japan signed a new trade deal. ||| A new trade pact was agreed by Japan."
    assert p1["followup"] == "A new trade pact was agreed by Japan. ||| Japan signed a new trade deal."
    assert p1["diff"] == "S1 and S2 swapped"
    assert p1["expected"].endswith("gold score 0.9 in [0.8, 1.0] perfect correlation")
    sim = next(r for r in rows if r["relation"] == "MR2.1")
    assert sim["diff"].startswith("S1: ") and " ||| S2: " in sim["diff"]
    # Same seed, same sample.
    out2 = tmp_path / "followups-g.jsonl"
    assert audit.main([*args[:-1], str(out2)]) == 0
    assert audit.read_jsonl(out2) == rows


def test_sample_per_family_chinese(tmp_path: Path) -> None:
    rows, coverage, _ = _sample(tmp_path, "zh", "text", "--per-family", n=2)
    assert coverage["per_family"] is True and coverage["note"] == audit.PER_FAMILY_NOTE
    fams = coverage["families"]
    # MR7.1 swaps S1 and S2 (no rewriter): its own unit, so reorder/zh samples reorderings.
    assert set(fams) == {f"{f}/zh" for f in (*FAMILIES, "swap")}
    for unit, f in fams.items():
        family = unit.split("/")[0]
        tasks = (1,) if family == "swap" else (2, 3) if family == "reorder" else (1, 2, 3)
        # Two texts (read by classification and summarization) and one pair.
        assert f["sources"] == len({1: 1, 2: 2, 3: 2}.keys() & set(tasks)) and 0 <= f["with_followup"] <= f["sources"]
        number = 7 if family == "swap" else FAMILIES.index(family) + 1
        assert set(f["relations"]) == {f"MR{number}.{t}" for t in tasks}
        mine = [r for r in rows if r["unit"] == unit]
        assert len(mine) == min(2, f["with_followup"])
        assert len({(r["source_kind"], r["source_id"]) for r in mine}) == len(mine)
        assert all(r["family"] == family and r["lang"] == "zh" for r in mine)
    # MR7.1 swaps the one pair; each text has a mark to write the standard way (「」 -> “”, … -> ……).
    assert fams["swap/zh"]["relations"]["MR7.1"]["with_followup"] == 1
    assert fams["punctuation/zh"]["relations"]["MR4.3"]["with_followup"] == 2
    assert coverage["relations"]["MR4.3/zh"]["family"] == "punctuation"
    ids = {r["source_id"] for r in rows}
    assert ids <= {"text-0001", "text-0002", "pair-0001"}


def test_chinese_diff_reads_jieba_words() -> None:
    from mtwidgets.text.inputs import ClassificationInput, SimilarityInput

    a = ClassificationInput("主教练李强赛后表示，球员们表现很好。")
    assert a.lang == "zh"
    diff = audit.text_diff(a, a.with_text("主教练王磊赛后表示，球员们表现很好。"))
    assert diff == "主教练 [-李强-]{+王磊+} 赛后表示， …"  # whole words, glued without spaces
    pair = SimilarityInput("中国队战胜了泰国队。", "中国队击败了泰国队。")
    same = audit.text_diff(pair, pair.with_texts("中国队战胜了泰国队!", "中国队击败了泰国队。"))
    assert same == "S1: … 战胜了泰国队 [-。-]{+!+} ||| S2: (no change)"  # three words of context
    assert audit.word_diff("a b c", "a x c", tokens=str.split, joiner="+") == "a [-b-]{+x+} c"


def test_refusals_listing_words_are_grouped() -> None:
    reasons = Counter({
        "MR5.3 needs a noun with a reviewed synonym (not here: no noun with a reviewed synonym (share, company have none))": 2,
        "MR5.3 needs a noun with a reviewed synonym (not here: no noun with a reviewed synonym (open has none))": 1,
    })
    assert audit._generalise(reasons) == Counter({
        "MR5.3 needs a noun with a reviewed synonym (not here: no noun with a reviewed synonym (… have none))": 3,
    })


# -- the judged table ----------------------------------------------------------------------
def _line(relation: str, family: str, lang: str, judgement: str, i: int, unit: bool = True) -> dict:
    row = {"relation": relation, "family": family, "lang": lang, "source_id": f"s{i}", "source": "x",
           "followup": "y", "judgement": judgement, "reason": ""}
    if unit:
        row["unit"] = f"{family}/{lang}"
    return row


def test_table_per_family_and_language(tmp_path: Path) -> None:
    en = [_line("MR5.1", "noun", "en", "valid", 0), _line("MR5.3", "noun", "en", "valid", 1),
          _line("MR5.3", "noun", "en", "invalid", 2), _line("MR5.2", "noun", "en", "minor", 3)]
    zh = [_line("MR7.1", "reorder", "zh", "valid", i, unit=False) for i in range(3)]
    en_file = _write_jsonl(tmp_path / "followups-en.judged.jsonl", en)
    zh_file = _write_jsonl(tmp_path / "followups-zh.judged.jsonl", zh)
    (tmp_path / "followups-en.coverage.json").write_text(
        json.dumps({"relations": {"MR5.1/en": {"with_followup_pct": 1.0}},
                    "families": {"noun/en": {"with_followup_pct": 1.4}}}), encoding="utf-8")
    md = tmp_path / "t.md"
    assert audit.main(["table", str(en_file), str(zh_file), "--markdown", str(md)]) == 0
    table = audit.judged_table(en + zh, {"families": {"noun/en": {"with_followup_pct": 1.4}}})
    # noun/en: 2 valid, 1 minor, 1 invalid of 4; reorder/zh (family and language, no unit): 3 valid of 3.
    assert table == [
        {"relation": "noun/en", "judged": 4, "valid": 50.0, "minor": 25.0, "invalid": 25.0, "with_followup": 1.4,
         "mrs": {"MR5.1": 1, "MR5.2": 1, "MR5.3": 2}},
        {"relation": "reorder/zh", "judged": 3, "valid": 100.0, "minor": 0.0, "invalid": 0.0, "with_followup": None,
         "mrs": {"MR7.1": 3}},
    ]
    text = md.read_text(encoding="utf-8")
    assert text.startswith(audit.PER_FAMILY_NOTE + "\n\n| family/lang | judged |")
    assert "| noun/en | 4 | 50.0 | 25.0 | 25.0 | 1.4 | MR5.1:1 MR5.2:1 MR5.3:2 |" in text
    assert "missed by noun/en" in text
    assert "fewer than 40 judged: noun/en, reorder/zh" in text
    assert "| family/lang | judged | valid % | minor % | invalid % | sources with a follow-up % | MRs judged |\n" \
        "|---|---:|---:|---:|---:|---:|---|" in text


def test_table_per_relation_of_text_lines(tmp_path: Path) -> None:
    rows = [{**_line("MR2.3", "country", "en", "valid", i), "unit": "MR2.3/en"} for i in range(2)]
    table = audit.judged_table(rows, {"relations": {"MR2.3/en": {"with_followup_pct": 50.0}}})
    assert table == [{"relation": "MR2.3/en", "judged": 2, "valid": 100.0, "minor": 0.0, "invalid": 0.0,
                      "with_followup": 50.0}]
    rendered = audit.render(table, markdown=False)
    assert rendered.startswith("relation") and audit.PER_FAMILY_NOTE not in rendered
    assert "met by every relation; fewer than 40 judged: MR2.3/en" in rendered
    rows40 = [{**r, "source_id": f"s{i}"} for i, r in enumerate(rows * 20)]
    assert "fewer than" not in audit.render(audit.judged_table(rows40, None), markdown=True)
