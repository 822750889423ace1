"""Regression tests for the failures a validity audit of the English rewriters found, one
per pattern, on the audit's own texts: every rewrite these texts now get must be one a
reader accepts, or the rewriter must refuse with its reason."""

from __future__ import annotations

import random

import pytest

from mtwidgets.lang.names import CLASSIC_GIVEN_NAMES, culture_surnames
from mtwidgets.text import en
from mtwidgets.text.rewrite import Rewrites


def one(family: str, text: str, k: int = 8) -> Rewrites:
    return en.REWRITERS[family](text, rng=random.Random(0), k=k)


def pair(a: str, b: str) -> str:
    return a + "\n" + b  # how the similarity relations hand a pair to a rewriter


# -- names: the culture the text states ------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Good news for fans of Scandinavian crime drama: the third season has been confirmed. Danish actor Mads "
    "Lindqvist returns as the gloomy detective.",
    pair("Omar Farouk retired after forty years as a taxi driver in Cairo.",
         "After four decades driving a taxi through the streets of Cairo, Omar Farouk has stopped working."),
    pair("Fatima Zahra, a young athlete from Morocco, qualified for the Olympic final in the 1500 metres.",
         "Moroccan runner Fatima Zahra has reached the Olympic 1500-metre final."),
    pair("Oliver Schmidt, a German engineer, designed the bridge that connects the two islands.",
         "The bridge linking the two islands was designed by Oliver Schmidt, an engineer from Germany."),
    pair("Grace Kim is a software engineer who lives and works in Seoul.",
         "Grace Kim works as a software engineer and lives in Seoul."),
])
def test_a_name_tied_to_a_country_of_another_or_unlisted_culture_is_refused(text: str) -> None:
    found = one("name", text)
    assert not found and found.why


def test_a_person_of_a_stated_nationality_keeps_a_name_of_that_culture() -> None:
    text = ("A farmer in Normandy has turned his family's apple orchards into one of France's most successful "
            "cider brands. Pierre Lefebvre took over the farm from his father in 2009.")
    found = one("name", text)
    assert found
    french = culture_surnames(("fr_FR",), "male")
    assert all(rw.meta["new"].startswith("Pierre ") and rw.meta["new"].split()[1] in french for rw in found)


def test_an_indian_name_is_refused() -> None:
    found = one("name", pair("Engineer Priya Nair was promoted to head of the research department last month.",
                             "Last month, Priya Nair, an engineer, became the head of the firm's research department."))
    assert not found and "Indian name" in str(found.why)


def test_a_name_beside_another_of_unknown_culture_is_refused() -> None:
    text = ("Cricket round-up: Pakistan beat Sri Lanka by 45 runs in Colombo on Sunday thanks to fast bowler Imran "
            "Qureshi, who took five wickets for 31. Earlier, captain Babar Sheikh had anchored the innings.")
    assert not one("name", text)


def test_a_lone_english_given_name_becomes_a_classic_one() -> None:
    found = one("name", "Special mention to Sarah, who scored our goal with a lovely shot from outside the box.")
    assert found and all(rw.meta["new"] in CLASSIC_GIVEN_NAMES["female"] for rw in found)


# -- countries: the one geographic fact of the text --------------------------------------------------
@pytest.mark.parametrize("text, why", [
    ("The Tour de France will start in Barcelona next year. It will be the third time the race has begun in "
     "Spain. Riders will then head north towards the Pyrenees before crossing into France.", "names"),
    ("Schools in the state of Kerala, India, are introducing classes on identifying fake news.", "Kerala"),
    ("A 14-year-old from Ghana has built a game that teaches children to count in Twi, one of the country's main "
     "languages.", ""),
    ("Coffee prices have hit their highest level in a decade after poor harvests in Brazil and Vietnam, the "
     "world's two largest producers.", ""),
    (pair("The journalist spent three months in Ukraine reporting on the effects of the war.",
          "The war has caused severe damage to farms and factories in eastern Ukraine."), "war"),
    ("A cargo ship that ran aground off the coast of South Africa has begun leaking fuel, prompting fears for "
     "nearby penguin colonies.", ""),
    ("Heavy snowfall has cut off dozens of villages in northern Pakistan.", "northern"),
    ("Tourism in Iceland has rebounded strongly. Hotels in Reykjavik report occupancy rates above ninety percent.",
     "Reykjavik"),
])
def test_a_country_the_text_says_more_of_is_refused(text: str, why: str) -> None:
    found = one("country", text)
    assert not found and why in str(found.why)


def test_a_country_that_is_the_only_geographic_fact_changes_within_its_region() -> None:
    text = "Lawmakers in New Zealand passed a law on Tuesday that bans new petrol cars from 2035."
    found = one("country", text)
    assert found and all(rw.meta["new"] in en.REGIONS["oceania"] for rw in found)
    assert "Fiji" not in en.COUNTRIES


# -- occupations: sense, register, terms and pairs ---------------------------------------------------
@pytest.mark.parametrize("text", [
    "Our writers picked their favourite albums of the year, and there was one clear winner.",
    "The authors admit that cyclists may simply be healthier to begin with.",
    "The teacher organised a school trip to a science museum in Paris.",
    "Many chefs believe customers should be told more about what is in their food.",
    "The engineer designed a more efficient battery for electric buses.",
    "The election results in the Netherlands surprised many political analysts.",
])
def test_occupations_whose_peers_slip_sense_or_register_are_not_replaced(text: str) -> None:
    assert not one("occupation", text)
    assert not {"educator", "novelist", "cook", "technician", "economist"} & set(en._FIELD_OF)


def test_an_occupation_in_a_fixed_term_is_refused() -> None:
    text = 'The site relies on two "citizen journalists" to cover the council meetings.'
    found = one("occupation", text)
    assert not found and "fixed phrase" in str(found.why)


def test_a_pair_where_one_text_names_the_same_person_is_refused() -> None:
    text = pair("Journalist Anna Berg was promoted to head of the news desk last month.",
                "Last month, Anna Berg, a journalist, became the head of the news desk.")
    found = one("occupation", text)
    assert not found and "title" in str(found.why)


# -- punctuation: exact equivalents only ----------------------------------------------------------
def test_a_full_stop_never_becomes_an_exclamation_mark() -> None:
    text = ("Update: the outage that affected our email service this morning has been resolved. We apologise for "
            "the disruption and will publish a full report on what happened by the end of the week.")
    found = one("punctuation", text)
    assert not found and "tone" in str(found.why)


def test_every_quotation_of_the_text_takes_typographic_quotes() -> None:
    text = ('Today he employs eighteen people. "My father was a chef in Hanoi," he explains. "Everything I know '
            'about broth, I learned from watching him."')
    quotes = [rw for rw in one("punctuation", text) if rw.meta["kind"] == "quotes"]
    assert len(quotes) == 1 and '"' not in quotes[0].text
    assert quotes[0].text.count("\u201c") == 2 and quotes[0].text.count("\u201d") == 2


# -- nouns: a bare "maker", a named event ----------------------------------------------------------
@pytest.mark.parametrize("text, why", [
    ("The change is expected to save consumers money. Manufacturers will have two years to comply.", "maker"),
    ("Pharmacists say manufacturers have been unable to keep up with demand.", "maker"),
    ("Thousands marched through Warsaw to mark the anniversary of the 1944 uprising against Nazi occupation.",
     "1944"),
])
def test_a_noun_whose_synonym_misreads_is_refused(text: str, why: str) -> None:
    found = one("noun", text)
    assert all(rw.meta["old"] not in ("manufacturer", "uprising") for rw in found)
    assert found or why in str(found.why)


# -- reordering: quotations, markers, a closing line ---------------------------------------------------
@pytest.mark.parametrize("text", [
    'Interview: Dr. Elena Petrova, a psychiatrist in Sofia, studies farm workers. "People assume rural life is '
    'peaceful," she told us. "In reality, many farmers are isolated. They rarely ask for help."',
    'Interview with a headteacher: "The biggest change I\'ve seen is how anxious children are," says Fiona '
    'Campbell. "They worry about exams. We now have a counsellor on site."',
])
def test_a_quotation_over_several_sentences_is_never_reordered(text: str) -> None:
    found = one("reorder", text)
    assert not found and "quotation" in str(found.why)


def test_a_quote_and_reported_speech_keep_their_place() -> None:
    text = ("When Minh Tran opened his noodle shop in Houston, he had four tables. Today he employs eighteen people. "
            '"My father was a chef in Hanoi," he explains. "Everything I know about broth, I learned from watching '
            'him."')
    assert not one("reorder", text)


def test_sentences_with_a_marker_tying_them_back_keep_their_place() -> None:
    text = ("Grandma's first week with a smartphone, a short report: Monday, she called me by accident six times. "
            "Wednesday, she sent a photo of her thumb to the entire family group. By Saturday, though, she had "
            "learned to make video calls. Progress!")
    assert not one("reorder", text)
    dwarf = ("Astronomers using a telescope in Chile have detected what may be the coldest brown dwarf ever seen. "
             "The object has a surface temperature close to that of a winter day in Canada. As a result, "
             "researchers say it could help explain how such failed stars cool.")
    assert not one("reorder", dwarf)


@pytest.mark.parametrize("last", ["Apply with your CV by 20 March.",
                                  "If you have any questions, please contact the school office before Wednesday."])
def test_a_closing_call_to_action_stays_last(last: str) -> None:
    text = ("We're looking for an experienced chef to join our busy kitchen in Edinburgh. You'll lead a team of "
            "five and create seasonal menus. We offer a competitive salary and no split shifts. " + last)
    sentences = en.split_sentences(text)
    assert sentences is not None
    spans = en._sentence_spans(text, sentences)
    assert spans is not None and len(sentences) - 1 in en._pinned(sentences, spans)
    assert all(rw.text.endswith(last) for rw in one("reorder", text))


# -- second audit: punctuation converted as a whole ---------------------------------------------------
def test_both_dashes_of_a_pair_and_the_apostrophes_are_converted_together() -> None:
    text = ("Film review: it's long - nearly three hours - but the story of a Korean grandmother who moves to Los "
            "Angeles to help raise her grandchildren earns every minute.")
    found = one("punctuation", text)
    assert len(found) == 1
    assert found[0].text.startswith("Film review: it\u2019s long \u2014 nearly three hours \u2014 but the story")
    assert " - " not in found[0].text and "'" not in found[0].text


def test_quotes_and_apostrophes_never_end_up_in_mixed_styles() -> None:
    text = ('In a message to fans, the siblings said they wanted to spend more time with their families. "We\'re '
            'not breaking up. We\'re just going home for a while," Linnea wrote.')
    found = one("punctuation", text)
    assert len(found) == 1 and found[0].meta["kind"] == "quotes+apostrophes"
    assert found[0].text.endswith("\u201cWe\u2019re not breaking up. We\u2019re just going home for a while,\u201d "
                                  "Linnea wrote.")
    assert not {'"', "'"} & set(found[0].text)


@pytest.mark.parametrize("text, why", [
    # the signature's hyphen follows a quote: it cannot become a dash like a spaced hyphen between words
    ('The wiring is not, and I\'ve seen what happens when someone\'s cousin "has a go." - B. Thompson, Norwich',
     "spaced hyphen"),
    ("Ticket prices are up \u2013 again - and fans are angry.", "en dash"),
    ("The players' coach said it\u2019s fine.", "not an apostrophe"),
    ("\u201cWe\u2019re not breaking up,\u201d Linnea wrote \u2014 and the fans cheered.", "no straight"),
])
def test_marks_that_cannot_all_be_converted_or_are_already_typographic_are_refused(text: str, why: str) -> None:
    found = one("punctuation", text)
    assert not found and why in str(found.why)


# -- second audit: occupations ----------------------------------------------------------------------
def test_the_article_of_an_adjective_before_the_occupation_is_kept() -> None:
    text = ("A previously unknown ledger kept by an Irish accountant has been found in the attic of a house in Cork. "
            "It will be shown at a museum in Dublin later this year.")
    found = one("occupation", text)
    assert [rw.text.split(" has been")[0] for rw in found] == ["A previously unknown ledger kept by an Irish bookkeeper"]


def test_an_occupation_whose_own_work_the_text_speaks_of_is_refused() -> None:
    text = ("Letter: as a retired accountant, I've been asked by half my street to look over their accounts. The "
            "numbers are the easy part. The receipts are not.")
    found = one("occupation", text)
    assert not found and "'accounts'" in str(found.why)


def test_doctors_and_reporters_keep_their_everyday_words() -> None:
    assert "doctor" not in en._FIELD_OF and "physician" not in en._FIELD_OF and "correspondent" not in en._FIELD_OF
    assert not one("occupation", "Doctors expect her to be out for about two months.")
    found = one("occupation", pair("The lawyer said her client would appeal the court's decision on Monday.",
                                   "Her client plans to challenge the ruling, the lawyer told reporters after the "
                                   "hearing."))
    assert [rw.meta["new"] for rw in found] == ["journalist"]


# -- second audit: nouns in fixed phrases and named events, verbs of another register -----------------------
AUDIT_SYNONYMS = {("NOUN", "kind"): ("sort",), ("NOUN", "uprising"): ("rebellion",), ("VERB", "supply"): ("provide",),
                  ("VERB", "shout"): ("yell",), ("VERB", "aid"): ("assist",), ("VERB", "need"): ("require",)}


@pytest.fixture
def audit_synonyms(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtwidgets.lang.synonyms_en as lexicon

    monkeypatch.setattr(lexicon, "vetted_synonyms", lambda lemma, pos: AUDIT_SYNONYMS.get((pos, lemma.lower()), ()))


@pytest.mark.parametrize("text, why", [
    ("A delegation from Canada arrived in Nairobi on Tuesday. The visit is the first of its kind in five years.",
     "of its kind"),
    ("It was the kind of goal you tell your grandchildren about.", "kind of"),
    ("As a teenager she carried messages through the city's sewers during the uprising of 1944.", "1944"),
])
def test_a_noun_of_a_fixed_phrase_or_a_named_event_is_refused(audit_synonyms: None, text: str, why: str) -> None:
    found = one("noun", text)
    assert not found and why in str(found.why)


def test_a_noun_outside_a_fixed_phrase_still_takes_its_synonym(audit_synonyms: None) -> None:
    assert [rw.text for rw in one("noun", "No two houses are of the same kind.")] == [
        "No two houses are of the same sort."]
    assert [rw.text for rw in one("noun", "The uprising failed.")] == ["The rebellion failed."]


def test_a_verb_whose_synonym_the_text_already_uses_in_another_form_is_refused(audit_synonyms: None) -> None:
    text = ("A Kenyan flower farm that supplies roses to supermarkets has been praised for paying its workers a "
            "living wage and providing free childcare on site.")
    found = one("verb", text)
    assert not found and "'provide'" in str(found.why)


def test_street_vendors_still_shout(audit_synonyms: None) -> None:
    assert not one("verb", "Ferries still run, and simit sellers still shout on the corners.")


# -- second audit: personal texts keep their order ------------------------------------------------------
@pytest.mark.parametrize("text, why", [
    ("Dear Sir, as someone who has paid for a season ticket for twenty-two years, I'd like to know why a pie now "
     "costs \u00a35.50 at the ground. I don't mind losing every other week - I'm used to that - but I do mind being "
     "robbed at half-time. Yours, a tired fan from Stoke.", "first person"),
    ("My grandmother is 86 and she just learned to video call. It took three visits and a lot of patience. She called "
     "me yesterday at 6am to show me her cat. I've never been happier to be woken up.", "first person"),
    ('From my daughter\'s school newsletter: "Reminder - children must not bring peanuts into school." I\'d love to '
     "know the story behind the hamster. Actually, knowing Year 3, maybe I wouldn't.", "first person"),
    ("Greetings from Hanoi! This week's newsletter comes to you from a very rainy caf\u00e9 near the Old Quarter. "
     "Typhoon season has arrived, and the streets are full of motorbikes. Our friend Minh, who drives a taxi, says "
     "the trick is to keep moving. We'll be travelling south to Hue next week - more soon.", "letter"),
])
def test_letters_postcards_and_personal_stories_are_not_reordered(text: str, why: str) -> None:
    found = one("reorder", text)
    assert not found and why in str(found.why)


def test_a_sign_off_and_an_actually_sentence_keep_their_place() -> None:
    text = ("The council has approved a new cycle lane on the high street. Work will start in spring. Shops on the "
            "street will stay open throughout. Yours, the council press office.")
    sentences = en.split_sentences(text)
    assert sentences is not None
    spans = en._sentence_spans(text, sentences)
    assert spans is not None and 3 in en._pinned(sentences, spans)
    actually = ("The museum reopened on Monday after a long refit. Visitors queued round the block. The caf\u00e9 ran "
                "out of cake by noon. Actually, the cake ran out by eleven.")
    sentences = en.split_sentences(actually)
    assert sentences is not None
    spans = en._sentence_spans(actually, sentences)
    assert spans is not None and "'Actually'" in str(en._order_problem(spans, (0, 2, 1, 3)))


def test_a_quoted_they_keeps_the_sentence_it_followed() -> None:
    text = ("A Japanese company that makes wooden toys by hand in a village in Nagano has seen orders from Europe "
            "triple in two years. Founder Akiko Fujita, a former accountant, started the business with her husband "
            "after they moved from Tokyo to raise their children in the countryside. The toys are made from local "
            "cypress, and each one is sanded by hand by one of six craftspeople, most of them older men from the "
            "village who had worked in the timber industry. \"They said they were retired,\" Fujita said. \"Then they "
            "saw the workshop and asked when they could start.\" The company ships mainly to Germany, France and "
            "Denmark.")
    sentences = en.split_sentences(text)
    assert sentences is not None
    spans = en._sentence_spans(text, sentences)
    assert spans is not None
    # the quote's "They" is the craftspeople of the sentence before it: it may not move away
    assert en._order_problem(spans, (0, 1, 3, 2, 4)) is not None
    assert all(rw.meta["order"][2:4] == [2, 3] for rw in one("reorder", text))


# -- third audit -------------------------------------------------------------------------------------------
def test_a_capitalised_word_at_the_start_of_a_sentence_is_not_taken_for_a_verb(audit_synonyms: None) -> None:
    found = one("verb", "Aid worker Sarah Jones said the camp needs more water.")
    assert [rw.meta["old"] for rw in found] == ["need"]
    assert all(rw.text.startswith("Aid worker") for rw in found)


@pytest.mark.parametrize("text", [
    "The electrician repaired the lights in the church hall on Saturday.",
    pair("An electrician was called out to the village after the storm.",
         "Engineers worked through the night to restore power to the village."),
    "A local carpenter built new benches for the park.",
    "The painter and decorator finished the hallway on Friday.",
    "The professor gave a lecture on the war.",
])
def test_trades_ranks_and_painters_are_never_replaced(text: str) -> None:
    # a text gives each trade its own task; professor and lecturer are ranks; a painter may paint walls
    found = one("occupation", text)
    assert not found and "no occupation noun of the list" in str(found.why)


def test_a_surname_never_comes_before_the_full_name_that_introduces_it() -> None:
    text = ("Coral reefs off the coast of Belize are recovering faster than expected. "
            "A survey by marine scientist Dr Pedro Alvarez counted twice as many young corals as in 2019. "
            "Warm water bleached large parts of the barrier in 2016. "
            "Alvarez has studied the reef for twenty years.")
    assert all(rw.meta["order"].index(1) < rw.meta["order"].index(3) for rw in one("reorder", text))
    sentences = en.split_sentences(text)
    assert sentences is not None
    spans = en._sentence_spans(text, sentences)
    assert spans is not None
    assert "Dr Pedro Alvarez" in str(en._leans_on(spans[3], spans[1], spans[0]))
    assert "short name" in str(en._order_problem(spans, (0, 3, 2, 1)))


# -- fourth audit round (benchmarks/audit/text4): its sources, now refused or rewritten well ----------
@pytest.mark.parametrize("text", [
    "Drinking coffee does not raise the risk of irregular heartbeat, a large study of 400,000 adults in Britain has "
    "found. If anything, moderate drinkers did slightly better.",
    pair("The cleaner found a wallet.", "Japan's population fell for the 15th year in a row."),
    "Ireland's data regulator fined the social network €390 million for breaking privacy rules. The company said it "
    "would appeal.",
    "The streaming service raised its monthly price for the second time this year; subscribers in Britain will pay "
    "£12.99 from July.",
    "Several Singapore hospitals reported shortages of nurses.",
])
def test_a_country_whose_currency_size_or_bloc_the_text_states_is_kept(text: str) -> None:
    found = one("country", text)
    assert not found and found.why


def test_a_place_named_for_a_world_city_ties_a_name_to_its_country() -> None:
    # "Madrid" is Spain's (Colombia's Madrid is twenty times smaller): an English surname would clash
    found = one("name", pair("Maria Gonzalez, a nurse from Madrid, won the city marathon on Sunday.",
                             "The central bank raised interest rates by half a point."))
    assert not found and "Spain" in str(found.why)


@pytest.mark.parametrize("text", [
    "Cheap credit helped the property sector bloom in the early 2010s. Higher interest rates have since put several "
    "smaller developers out of business.",
    "The auditors disregarded repeated warnings about the firm's accounts, according to a parliamentary report.",
    pair("Akira Mori, a Japanese carpenter, repaired the old temple without using nails.",
         "An old temple was repaired by a carpenter."),
    "The singer says she cherishes the letters fans send her and tries to answer as many as she can.",
])
def test_an_occupation_whose_replacement_would_not_fit_is_refused(text: str) -> None:
    assert not one("occupation", text)


def test_a_lecturer_is_not_drawn_beside_a_lecture() -> None:
    text = "A university has dismissed a professor for criticising the war in a lecture."
    assert all("lecturer" not in rw.text for rw in one("occupation", text))


def test_a_verb_the_parser_mistags_takes_the_form_its_word_has() -> None:
    # spaCy tags "leapt" VBZ; its synonym must stay in the past ("jumped", not "jumps")
    found = one("verb", "The pound leapt against the euro after stronger-than-expected jobs data.")
    assert [rw.text for rw in found] == ["The pound jumped against the euro after stronger-than-expected jobs data."]


@pytest.mark.parametrize("text, word", [
    ("The demise of Australia's once-feared swimming team has been swift.", "death"),
    ("Lawmakers voted to prohibit the sale of disposable vapes.", "forbid"),
])
def test_pairs_dropped_in_the_fourth_round_are_not_drawn(text: str, word: str) -> None:
    family = "noun" if word == "death" else "verb"
    assert all(word not in rw.text for rw in one(family, text))


@pytest.mark.parametrize("text, tied", [
    ("The University of Nairobi has opened a new school of agriculture in partnership with a university in the "
     "Netherlands. The first 80 students start in September. Some will spend a semester working on dairy farms in "
     "Friesland. The school's first building opens in May.", "Some will spend"),
    ("Grace Mensah, a maths teacher in Tamale, has been named Ghana's teacher of the year. Her students have since "
     "won two regional maths contests. The award ceremony is in June. Mensah runs a club with 200 members.",
     "Her students have since"),
])
def test_a_sentence_tied_to_its_predecessor_follows_it_in_every_order(text: str, tied: str) -> None:
    sentences = en.split_sentences(text)
    assert sentences is not None
    index = next(i for i, s in enumerate(sentences) if s.startswith(tied))
    for rw in one("reorder", text):
        moved = en.split_sentences(rw.text)
        assert moved is not None
        at = moved.index(sentences[index])
        assert moved[at - 1] == sentences[index - 1], rw.text


# -- sixth and seventh audit rounds (benchmarks/audit/text6, text7): their sources ------------------
@pytest.mark.parametrize("text", [
    "Voters in Switzerland approved the plan in a referendum on Sunday.",
    "A typhoon forced the Philippines to cancel more than 100 flights.",
    "Data centres now use a fifth of all electricity in Ireland.",
    "In Japan, one in three people is now aged 65 or over.",
])
def test_a_country_whose_institutions_nature_or_shares_the_text_states_is_kept(text: str) -> None:
    found = one("country", text)
    assert not found and found.why


def test_a_sentence_that_opens_on_that_or_an_age_stays_after_its_predecessor() -> None:
    text = ("Remittances reached $37.2 billion last year, the central bank said on Monday. The money is a tenth of "
            "the economy. That was 3 percent more than in 2022. Officials in Manila welcomed the figures.")
    sentences = en.split_sentences(text)
    assert sentences is not None
    spans = en._sentence_spans(text, sentences)
    assert "That" in str(en._order_problem(spans, (0, 2, 1, 3)))
    aged = ("Thomas Vermeulen, a nurse in Ghent, won the lottery on Friday. The 27-year-old said he would keep his "
            "shifts. Ghent hospital staff threw him a party. The prize is the largest this year.")
    sentences = en.split_sentences(aged)
    assert sentences is not None
    spans = en._sentence_spans(aged, sentences)
    assert "age" in str(en._order_problem(spans, (0, 2, 1, 3)))


def test_only_two_neighbouring_sentences_that_stand_alone_change_places() -> None:
    text = ("The festival opened in Lagos on Friday. On Saturday, Nigeria's culture minister visited the main stage. "
            "In Abuja, a second venue sold out. Tickets cost 5,000 naira.")
    assert [rw.meta["order"] for rw in one("reorder", text)] == [[0, 2, 1, 3]]
    # a sentence with a pronoun, or one that takes up "the stage" of another, stands nowhere else
    leaning = ("The festival opened in Lagos on Friday. On Saturday, the minister visited the main stage. "
               "In Abuja, it sold out. Tickets cost 5,000 naira.")
    found = one("reorder", leaning)
    assert not found and "stand on their own" in str(found.why)


def test_a_name_of_a_country_of_many_peoples_is_kept() -> None:
    found = one("name", "Njeri Kamau won the Nairobi marathon on Sunday.")
    assert not found and "many peoples" in str(found.why)


# -- eleventh round (benchmarks/audit/text11): a moved sentence, or the one after the pair, that
# takes up an event or continues a story ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # "a similar programme" compares with the sentence it followed
        "Italy's health ministry will make a nasal flu vaccine available to all children aged two to six this winter. "
        "Spain's Andalusia region is running a similar programme for the second year. Portugal plans to offer free "
        "RSV immunisation for newborns. Greece said it would decide on its own approach next month.",
        # "went on to win" continues the crash story
        "Formula One: Red Bull's Dutch driver Joost Vermaelen crashed out on the opening lap of the Singapore Grand "
        "Prix on Sunday. Ferrari's Carlos Medina went on to win from pole position. Mercedes had a difficult evening, "
        "with both cars finishing outside the points. The stewards are investigating the first-corner incident.",
        # "had led at half-time" is set before the late goals
        "The Irish women's hockey team missed out on Olympic qualification after a 2-1 defeat to Japan in Valencia on "
        "Sunday. Ireland had led at half-time through a goal from Róisín Upton-Kelly. Japan scored twice in the last "
        "ten minutes. Coach Fergal Nolan said the squad was devastated.",
        # "the session" is the Security Council meeting of the lead
        "The United Nations Security Council will meet on Wednesday to discuss the situation in Haiti. Kenya's "
        "foreign minister is expected to address the session. Canada announced additional humanitarian funding for "
        "the country on Monday. The Dominican Republic has kept its border crossings partly closed.",
        # the sentence after the pair: "the talks", "had been key", "The measures" take up its old predecessor
        "Norway pledged an additional 500 million kroner on Wednesday to protect rainforests in Indonesia and the "
        "Democratic Republic of Congo. Finland and Iceland signed a new agreement on geothermal energy research. In "
        "Reykjavik, a Nordic summit ended with a joint statement on Arctic cooperation. Iceland's prime minister, "
        "Gudrún Ólafsdóttir, described the talks as productive.",
        "Cuba's Centre for Genetic Engineering and Biotechnology announced positive results from a trial of its "
        "therapeutic lung cancer vaccine. In the Dominican Republic, a new maternity hospital opened in Santiago de los "
        "Caballeros. Jamaica's health ministry reported the lowest number of dengue cases in five years. "
        "Epidemiologist Dr. Marcia Whyte said mosquito control efforts in Kingston had been key.",
        "On Monday, Nepal's government reopened the Kathmandu–Tibet trade route at Rasuwagadhi after winter closures. "
        "Bhutan's national assembly began its summer session in Thimphu. In Bangladesh, the election commission "
        "announced new rules for campaign spending. Sri Lanka's cabinet approved a plan to restructure the state "
        "electricity board. The measures are expected to be debated in parliament next month.",
    ],
)
def test_a_sentence_taking_up_an_event_or_a_story_keeps_the_order(text: str) -> None:
    assert not one("reorder", text)


def test_items_that_each_stand_alone_still_change_places() -> None:
    text = ("Two course records fell at the Rotterdam Marathon on a cool, windless Sunday. Genet Alemu of Ethiopia "
            "took 41 seconds off the women's mark. In the men's race, Kenya's Daniel Kiprotich won in 2:04:11. "
            "Lieke Bosman was the fastest Dutch finisher.")
    assert en._tells_a_sequel(en._sentence_spans(text, en.split_sentences(text))[2]) is False


@pytest.mark.parametrize(
    "text",
    [
        'Vocational training schemes expanded this month. In Bavaria, a programme offering paid apprenticeships to refugees placed 4,000 people in jobs. Singapore launched subsidised courses in green technology for workers over 40. On Monday, Columbus State Community College in Ohio began training electric vehicle mechanics. Course leader Marcus Delgado said applications far exceeded the places available.',  # er11c-113
        "Transport accidents claimed lives in several countries. A bus plunged into a ravine in Peru's Huancavelica region on Tuesday, killing 22 people. In Bihar, a passenger train derailed near Buxar, injuring 70. On Thursday, a ferry carrying 150 people capsized off the coast of Sulawesi. Indonesian rescuers were still searching for 12 missing passengers.",  # er11c-164
        "It was a bruising weekend for the region's rugby clubs in the European competition. Bayview Warriors lost 38-10 in Toulouse and saw their captain, Sione Latu, leave with a shoulder injury. In Limerick, Westport Harriers conceded four tries in the second half of a 31-17 defeat. Northgate Eagles missed a last-minute penalty and went down 20-19 in Bath. Coach Eoin Gallagher described his side's performance as the worst of the season. Glenmore Stags offered the only consolation of the round with a 22-22 draw at home to Leicester Grey.",  # er11d-017
        'Injuries and suspensions have piled up for several title contenders ahead of the new basketball season. The Portland Pines confirmed that guard Marcus Ellison will miss at least six weeks with a broken wrist. In Boston, forward Dmitri Volkov was suspended for five games after a preseason altercation. Chicago Meridian lost centre Oumar Sy to a torn knee ligament in training. Coach Deshawn Riley admitted his squad would be stretched during the opening month. In Dallas, rookie guard Tavon Price was ruled out for the season after surgery on his foot.',  # er11d-042
    ],
)
def test_a_comment_on_the_item_before_the_pair_keeps_the_order(text: str) -> None:
    # "Coach X described his side's performance", "rescuers were still searching", "X said": the sentence after
    # the pair comments on the item it followed; swapping the pair hands it to another item
    for rw in one("reorder", text):
        order = rw.meta["order"]
        assert order[-2] == len(order) - 2, order
